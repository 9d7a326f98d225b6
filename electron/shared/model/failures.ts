// THE list of failure codes and exit codes, for the C worker, the CLI and the app. The worker's
// header native/src/failures.h is generated from this module (`npm run gen:failures`;
// failures.test.ts fails when the two differ), so each code and its exit status is written
// once. The worker and `diskdelta` share the exit codes: a worker status passes through the
// CLI unchanged and means the same thing, and every status either can return is listed here.
//
// Pure data: the renderer bundles it to offer the right action for a failure.

/** Every exit status the worker or `diskdelta` may return, with what it means (for --help). */
export const EXIT_CODES = [
  { exit: 0, name: 'OK', meaning: 'ok' },
  { exit: 1, name: 'INTERNAL', meaning: 'any other failure (no such run, an unreadable library, an internal error)' },
  { exit: 2, name: 'USAGE', meaning: 'bad usage (the message names the flag or value), incl. a write test on a block device' },
  { exit: 3, name: 'TARGET', meaning: 'target unusable (missing, not a folder or block device, read-only, no permission)' },
  { exit: 4, name: 'NOSPACE', meaning: 'not enough free space for the test file' },
  { exit: 5, name: 'NODIRECT', meaning: 'O_DIRECT refused or meaningless (tmpfs) without --buffered' },
  { exit: 6, name: 'IO', meaning: 'I/O error during the test' },
  { exit: 7, name: 'INTERRUPTED', meaning: 'interrupted by a signal or Ctrl-C (the test file is removed)' },
  {
    exit: 9,
    name: 'ELEVATION',
    meaning:
      'a raw device could not be opened for you: pkexec or the policy missing, no polkit agent, dismissed, denied, or the helper killed',
  },
  // Not 8: older workers ended an internal failure with 8, which must still read as internal.
  {
    exit: 10,
    name: 'NOT_SAVED',
    meaning:
      'measured and printed (--json too), but the library could not save the results (every command that saves a measurement: run, surface, encryption, ciphers, discard-cost, trim-audit, working-set, record)',
  },
] as const;

export type ExitName = (typeof EXIT_CODES)[number]['name'];

/**
 * What to do about a failure, in the words of where it is shown: the CLI names its flags, the
 * app its pages and fields (a person at the New run form has no --size to pass). An action
 * with one text reads the same in both.
 */
type ActionText = string | { cli: string; app: string };

export const FAILURE_ACTIONS = {
  'fix-input': 'Correct the value the message names and start again.',
  'pick-folder': 'Choose another folder to test in.',
  'free-space': {
    cli: 'Free some space on that disk, or pass a smaller --size.',
    app: 'Free some space on that disk, or choose a smaller test size.',
  },
  'free-space-span': {
    cli: 'Free some space on that disk, or pass a smaller --sustained-span.',
    app: 'Free some space on that disk, or lower the bytes the sustained write writes.',
  },
  'run-as-root': 'Run DiskDelta as root (or as a member of the disk group) to read a raw device, or choose a folder you may write to.',
  'use-buffered': {
    cli: 'Choose a folder on a disk, or pass --buffered to allow page-cache I/O (every result is then flagged).',
    app: 'Choose a folder on a disk, or allow page-cache I/O (every result is then flagged).',
  },
  'check-disk': 'Check the disk (the kernel log, `dmesg`, and its SMART status), then try again.',
  retry: 'Start the run again when you are ready.',
  'fix-library': {
    cli: 'The results were kept outside the library (printed, or in the file the message names): free space where the library is, or choose another library (--db), then import them.',
    app: 'The results were kept outside the library (in the file the message names): free space where the library is, then import them on the Library page.',
  },
  report: 'This is a fault in DiskDelta or the machine; try again, and report it if it repeats.',
  // A kernel feature or a system program this machine lacks is no fault of anyone's: say what
  // still answers the question (the ceilings are measured, the forecast is estimated from them).
  'missing-feature': {
    cli: 'This machine lacks what the message names; nothing is broken. `diskdelta ciphers` still measures the cipher ceilings, and the forecast estimates the cost from them.',
    app: 'This machine lacks what the message names; nothing is broken. The Cipher ceilings on the Overview page still measure what this CPU can encrypt, and the forecast estimates the cost from them.',
  },
  elevate: {
    cli: 'To read it as yourself, pass --elevate: DiskDelta then asks for administrator rights once (only the open is privileged).',
    app: 'Let DiskDelta ask for administrator rights to open the device (it asks once per device): only the open is privileged.',
  },
  'install-helper': "Install pkexec and DiskDelta's helper with its polkit policy: sudo npx diskdelta helper install (or the .deb).",
  'start-agent': "Run from a terminal, or start your desktop's polkit authentication agent, then try again.",
} as const satisfies Record<string, ActionText>;

/** Where a failure is shown. */
export type FailureSurface = 'cli' | 'app';

export type FailureAction = keyof typeof FAILURE_ACTIONS;

/** Every way a run can fail, by stable code: the worker's `error` lines carry these codes. */
export const FAILURES = {
  usage: { exit: 'USAGE', action: 'fix-input', what: 'a bad option or value' },
  'write-on-block-device': { exit: 'USAGE', action: 'pick-folder', what: 'a write test on a block device (devices are opened read-only)' },
  'read-only-mode': {
    exit: 'USAGE',
    action: 'fix-input',
    what: 'read-only mode (--read-only) and a write: a write test, or a folder whose test file would be written',
  },
  'target-missing': { exit: 'TARGET', action: 'pick-folder', what: 'the target does not exist' },
  'target-not-folder': { exit: 'TARGET', action: 'pick-folder', what: 'the target is neither a folder nor a block device' },
  'target-not-writable': { exit: 'TARGET', action: 'pick-folder', what: 'the target is on a read-only file system' },
  permission: { exit: 'TARGET', action: 'run-as-root', what: 'no permission to open the target' },
  'target-unusable': { exit: 'TARGET', action: 'pick-folder', what: 'the target cannot be opened or sized' },
  'target-virtual-fs': {
    exit: 'TARGET',
    action: 'pick-folder',
    what: 'the target is on a virtual filesystem such as /proc or /sys: no disk under it',
  },
  'no-space': { exit: 'NOSPACE', action: 'free-space', what: 'not enough free space' },
  // The sustained write's size is its span, not the test file's --size: its own action says so.
  'span-no-space': { exit: 'NOSPACE', action: 'free-space-span', what: 'not enough free space for the sustained write' },
  'no-direct-io': { exit: 'NODIRECT', action: 'use-buffered', what: 'O_DIRECT refused or meaningless (tmpfs)' },
  'io-error': { exit: 'IO', action: 'check-disk', what: 'an I/O error' },
  interrupted: { exit: 'INTERRUPTED', action: 'retry', what: 'stopped by a signal or cancelled' },
  'disk-busy': { exit: 'INTERNAL', action: 'retry', what: 'another DiskDelta process is measuring the same disk' },
  'not-saved': { exit: 'NOT_SAVED', action: 'fix-library', what: 'measured, but the library could not save the results' },
  internal: { exit: 'INTERNAL', action: 'report', what: 'an internal error' },
  // A raw device opened by the privileged helper through pkexec (native/src/elevate.c).
  'needs-elevation': { exit: 'TARGET', action: 'elevate', what: 'reading the device needs administrator rights' },
  'device-vanished': { exit: 'TARGET', action: 'check-disk', what: 'the device went away before it could be opened' },
  'helper-refused': { exit: 'TARGET', action: 'pick-folder', what: 'the privileged helper refused the device' },
  'bad-fd': { exit: 'USAGE', action: 'report', what: 'a handed-in descriptor is not a read-only one of the target' },
  'pkexec-missing': { exit: 'ELEVATION', action: 'install-helper', what: 'pkexec is not installed' },
  'elevate-policy-missing': { exit: 'ELEVATION', action: 'install-helper', what: "DiskDelta's polkit policy and helper are not installed" },
  'helper-missing': { exit: 'ELEVATION', action: 'install-helper', what: 'the helper the policy names is missing' },
  'elevate-no-agent': { exit: 'ELEVATION', action: 'start-agent', what: 'no polkit agent could ask for the password' },
  'elevate-dismissed': { exit: 'ELEVATION', action: 'retry', what: 'the authentication was dismissed' },
  'elevate-denied': { exit: 'ELEVATION', action: 'run-as-root', what: 'polkit did not authorise it' },
  'elevate-failed': { exit: 'ELEVATION', action: 'report', what: 'pkexec could not run the helper' },
  'helper-killed': { exit: 'ELEVATION', action: 'retry', what: 'the helper was killed before it passed the device back' },
  'helper-failed': { exit: 'ELEVATION', action: 'report', what: 'the helper could not open the device' },
  'holder-gone': { exit: 'ELEVATION', action: 'retry', what: "the session's descriptor holder is gone" },
  'no-cipher-backend': {
    exit: 'TARGET',
    action: 'missing-feature',
    what: 'no way to measure ciphers: neither AF_ALG in the kernel nor OpenSSL libcrypto',
  },
  'needs-root': { exit: 'TARGET', action: 'elevate', what: 'a dm-crypt mapping or a raw device needs root' },
  'no-dm-crypt': { exit: 'USAGE', action: 'fix-input', what: 'the target is not on a dm-crypt mapping' },
  'dm-crypt-unavailable': { exit: 'TARGET', action: 'missing-feature', what: 'no cryptsetup, losetup or device-mapper here' },
  'throwaway-failed': { exit: 'INTERNAL', action: 'report', what: 'the throwaway dm-crypt mapping could not be set up' },
} as const satisfies Record<string, { exit: ExitName; action: FailureAction; what: string }>;

export type FailureCode = keyof typeof FAILURES;
export const FAILURE_CODES = Object.keys(FAILURES) as [FailureCode, ...FailureCode[]];

export function isFailureCode(code: string): code is FailureCode {
  return Object.hasOwn(FAILURES, code);
}

export function exitCodeOf(code: FailureCode): number {
  const name = FAILURES[code].exit;
  return EXIT_CODES.find((e) => e.name === name)!.exit;
}

/** The failure a bare exit status stands for (a worker that died before saying why). */
export function failureOfExit(status: number | null): FailureCode {
  const name = EXIT_CODES.find((e) => e.exit === status)?.name;
  // not-saved is the CLI's own status: a worker never ends with it.
  const code = FAILURE_CODES.find((c) => FAILURES[c].exit === name && c !== 'write-on-block-device' && c !== 'not-saved');
  return code ?? 'internal';
}

export function actionOf(code: FailureCode, surface: FailureSurface): { action: FailureAction; text: string } {
  const action = FAILURES[code].action;
  const text: ActionText = FAILURE_ACTIONS[action];
  return { action, text: typeof text === 'string' ? text : text[surface] };
}

/** "Exit codes: 0 ok; 1 internal error …; …" for the CLI's and the worker's --help. */
export function exitCodesHelp(): string {
  return `Exit codes: ${EXIT_CODES.map((e) => `${e.exit} ${e.meaning}`).join('; ')}.`;
}

/** native/src/failures.h, generated: the exit codes and each failure code with its status. */
export function failuresHeader(): string {
  const cName = (code: string) => `FAIL_${code.toUpperCase().replace(/-/g, '_')}`;
  const width = Math.max(...FAILURE_CODES.map((c) => cName(c).length));
  return [
    '// GENERATED from electron/shared/model/failures.ts by `npm run gen:failures`: do not edit.',
    '// Each failure is its stable code (the `code` of the error line) and the exit status it ends with.',
    '#ifndef DD_FAILURES_H',
    '#define DD_FAILURES_H',
    '',
    'enum {',
    ...EXIT_CODES.map((e) => `  EXIT_${e.name} = ${e.exit},`),
    '};',
    '',
    'typedef struct {',
    '  const char *code;',
    '  int exit;',
    '} failure_t;',
    '',
    ...FAILURE_CODES.map((c) => `#define ${cName(c).padEnd(width)} ((failure_t){"${c}", EXIT_${FAILURES[c].exit}})`),
    '',
    `#define EXIT_CODES_HELP ${JSON.stringify(exitCodesHelp())}`,
    '',
    '#endif',
    '',
  ].join('\n');
}
