// The chart registry: every chart Compare and the report draw is an entry here. An entry says
// which results it draws (its `build`, and `claims` for tests it takes away from the others,
// as a block-size sweep takes its tests from the per-test bars) and where it is shown. Adding
// a chart is adding an entry: neither the app's view nor the report's printer names one.
import type { ChartInput, ChartModel } from './chart-model.ts';

export interface ChartType {
  id: string;
  /** In words, for the docs and the registry's listing: what it draws and how. */
  draws: string;
  /** Printed in the report too (false: the app only, e.g. a 600-sample time series per test). */
  inReport: boolean;
  /**
   * The app shows one of this type's charts at a time with a picker (one chart per test):
   * the section's heading and what it says when there is nothing to draw.
   */
  picker?: { heading: string; empty: string };
  /** Tests this type draws that no other type should draw again. */
  claims?(input: Omit<ChartInput, 'rows'>): Iterable<string>;
  build(input: ChartInput): ChartModel[];
}

export class ChartRegistry {
  readonly #types: ChartType[] = [];

  constructor(types: ChartType[] = []) {
    for (const type of types) this.register(type);
  }

  /** Adds a chart type (drawn after those before it); returns the call that removes it again. */
  register(type: ChartType): () => void {
    if (this.#types.some((t) => t.id === type.id)) throw new Error(`a chart type '${type.id}' is already registered`);
    this.#types.push(type);
    return () => {
      const at = this.#types.indexOf(type);
      if (at >= 0) this.#types.splice(at, 1);
    };
  }

  get types(): readonly ChartType[] {
    return this.#types;
  }

  byId(id: string): ChartType | undefined {
    return this.#types.find((t) => t.id === id);
  }

  /** The charts of these runs, in registry order; `where: 'report'` keeps the types printed. */
  build(input: Omit<ChartInput, 'rows'>, where: 'app' | 'report'): ChartModel[] {
    const types = this.#types.filter((t) => where === 'app' || t.inReport);
    const claimedBy = new Map<string, string>();
    for (const type of this.#types) for (const test of type.claims?.(input) ?? []) if (!claimedBy.has(test)) claimedBy.set(test, type.id);
    return types.flatMap((type) => {
      const rows = input.comparison.rows.filter((row) => (claimedBy.get(row.test) ?? type.id) === type.id);
      return type.build({ ...input, rows });
    });
  }
}
