// Every subcommand of `diskdelta`, in the order --help lists them. Add a command by writing
// commands/<name>.ts exporting a CliCommand (its --help text and run) and listing it here with
// its one-line synopsis and summary. A command's module is imported only when that command
// runs: loading all of them (the report's renderer, the run's engine, serve's Vite glue) cost
// about 0.7 s of every start, which `diskdelta report` and a quick `list` pay for nothing.
import type { CliCommand } from '../args.ts';
import { foreignToolNames } from '../../shared/model/source-formats.ts';

export interface CommandEntry {
  name: string;
  synopsis: string;
  summary: string;
  load(): Promise<CliCommand>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: 'run',
    synopsis: 'run --target PATH [options]',
    summary: 'measure the disk under PATH (a folder or a block device)',
    load: async () => (await import('./run.ts')).runCommand,
  },
  {
    name: 'serve',
    synopsis: 'serve [--port N] [--open]',
    summary: 'the app in a browser: UI and API on 127.0.0.1 with a per-launch token',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    name: 'devices',
    synopsis: 'devices [--json]',
    summary: 'list block devices: class, transport, link ceiling, scheduler, discard support',
    load: async () => (await import('./devices.ts')).devicesCommand,
  },
  {
    name: 'inspect',
    synopsis: 'inspect PATH [--json]',
    summary: 'show the storage stack under PATH: mount, dm-crypt, LVM, loop, disk, TRIM, link ceiling',
    load: async () => (await import('./inspect.ts')).inspectCommand,
  },
  {
    name: 'health',
    synopsis: 'health [DEVICE|PATH] [--json]',
    summary: "the drive's own counters: NVMe SMART / health log (written, used, hours, errors, temperature)",
    load: async () => (await import('./health.ts')).healthCommand,
  },
  {
    name: 'trim-audit',
    synopsis: 'trim-audit FOLDER [--no-fstrim] [--json] [--no-save]',
    summary: 'see which layers a TRIM reaches (discard counters before and after a delete + fstrim)',
    load: async () => (await import('./trim-audit.ts')).trimAuditCommand,
  },
  {
    name: 'discard-cost',
    synopsis: 'discard-cost FOLDER [--remount] [--runs N] [--size BYTES] [--json] [--no-save]',
    summary: 'measure what online discard costs per source-tree delete here, and what fstrim takes (root)',
    load: async () => (await import('./discard-cost.ts')).discardCostCommand,
  },
  {
    name: 'working-set',
    synopsis: 'working-set [PATH…] [--ssd SIZE] [--json]',
    summary: 'how big an SSD your data needs: bytes read or written within 1, 7, 30, 90, 365 days (no root)',
    load: async () => (await import('./working-set.ts')).workingSetCommand,
  },
  {
    name: 'surface',
    synopsis: 'surface DEVICE [--samples N] [--elevate] [--json]',
    summary: "an HDD's read speed from its outer to its inner tracks, the slowest zone named (read-only)",
    load: async () => (await import('./surface.ts')).surfaceCommand,
  },
  {
    name: 'record',
    synopsis: 'record [PATH] [--for DURATION] [--trace FILE] [--json]',
    summary: 'record file accesses for hours or days: how big an SSD cache would serve what you use (fanotify)',
    load: async () => (await import('./record.ts')).recordCommand,
  },
  {
    name: 'write-volume',
    synopsis: 'write-volume [--tbw TB] [--json]',
    summary: "what each disk writes a day and a year (since boot), beside a drive's rated endurance",
    load: async () => (await import('./write-volume.ts')).writeVolumeCommand,
  },
  {
    name: 'forecast',
    synopsis: 'forecast --candidate FILE|RUN… [--json] | forecast --example',
    summary: 'before you buy: candidate drives forecast on this machine for your own work, side by side',
    load: async () => (await import('./forecast.ts')).forecastCommand,
  },
  {
    name: 'assess',
    synopsis: 'assess start|set|show|list|report …',
    summary: 'an upgrade assessment kept across days: before, after, encryption, TRIM, then its report',
    load: async () => (await import('./assess.ts')).assessCommand,
  },
  {
    name: 'list',
    synopsis: 'list [--source|--label|--device|--since|--limit …] [--json]',
    summary: 'the runs kept in the results library',
    load: async () => (await import('./list.ts')).listCommand,
  },
  {
    name: 'show',
    synopsis: 'show ID [--json] [--unit MB|MiB|KB]',
    summary: 'one run with its device, stack, settings, results and warnings',
    load: async () => (await import('./show.ts')).showCommand,
  },
  {
    name: 'label',
    synopsis: 'label ID TEXT',
    summary: 'rename a run in the library',
    load: async () => (await import('./label.ts')).labelCommand,
  },
  {
    name: 'delete',
    synopsis: 'delete ID...',
    summary: 'remove runs from the library',
    load: async () => (await import('./delete.ts')).deleteCommand,
  },
  {
    name: 'fleet',
    synopsis: 'fleet run --hosts FILE --folder DIR | fleet compare [ID...] [--json]',
    summary: 'many hosts through fio --client: one run per host; the fleet view with verdicts per host',
    load: async () => (await import('./fleet.ts')).fleetCommand,
  },
  {
    name: 'compare',
    synopsis: 'compare ID ID... [--json] [--unit MB|MiB|KB]',
    summary: 'runs side by side: ratios, % change, better or worse, beyond the spread or not',
    load: async () => (await import('./compare.ts')).compareCommand,
  },
  {
    name: 'report',
    synopsis: 'report ID... [--out FILE] [--paper a4|letter] [--html]',
    summary: 'an assessment report of the runs as a PDF or self-contained HTML',
    load: async () => (await import('./report.ts')).reportCommand,
  },
  {
    name: 'import',
    synopsis: 'import FILE... [--label TEXT] | import --reference',
    summary: `add ${foreignToolNames().join('/')} results, or the reference runs`,
    load: async () => (await import('./import.ts')).importCommand,
  },
  {
    name: 'export',
    synopsis: 'export ID... [--format json|csv] [--out FILE [--force]]',
    summary: 'runs as DiskDelta JSON (re-importable) or CSV',
    load: async () => (await import('./export.ts')).exportCommand,
  },
  {
    name: 'ciphers',
    synopsis: 'ciphers [--json]',
    summary: "this CPU's dm-crypt cipher ceilings (AF_ALG; OpenSSL as a labelled estimate)",
    load: async () => (await import('./ciphers.ts')).ciphersCommand,
  },
  {
    name: 'encryption',
    synopsis: 'encryption --target DIR [options]',
    summary: 'what dm-crypt costs here: measured on a throwaway (or the existing) mapping, explained, forecast',
    load: async () => (await import('./encryption.ts')).encryptionCommand,
  },
  {
    name: 'helper',
    synopsis: 'helper install|uninstall|status',
    summary: 'install or remove the privileged helper and its polkit policy (root)',
    load: async () => (await import('./helper.ts')).helperCommand,
  },
];
