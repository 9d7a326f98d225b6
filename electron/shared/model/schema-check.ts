// zod's safeParse, safe on hostile input. zod gathers every issue of a document and hands an
// element's issues up to its container with `issues.push(...childIssues)`: one spread argument per
// issue, so an array holding ~50,000 bad entries inside any other array or object overflows the
// call stack ("Maximum call stack size exceeded", #38) instead of saying what is wrong. The first
// issue is all a message needs: when zod overflows, the schema is walked down to the first part
// that fails on its own (an array element, an object's field), whose issues are few.
import { z } from 'zod';

export interface SchemaIssue {
  path: PropertyKey[];
  message: string;
}

export type SchemaCheck<T> = { success: true; data: T } | { success: false; issues: SchemaIssue[] };

export function checkSchema<S extends z.ZodType>(schema: S, value: unknown): SchemaCheck<z.output<S>> {
  try {
    const result = schema.safeParse(value);
    return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { success: false, issues: [firstIssueBelow(schema, value, [])] };
  }
}

/** The first issue of `value` against `schema` at `path`, or null when it fits. */
function firstIssue(schema: z.ZodType, value: unknown, path: PropertyKey[]): SchemaIssue | null {
  try {
    const result = schema.safeParse(value);
    const issue = result.success ? undefined : result.error.issues[0];
    return issue ? { path: [...path, ...issue.path], message: issue.message } : null;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return firstIssueBelow(schema, value, path);
  }
}

/** A value too wrong for zod to list: the first of its parts that fails (loops over the data, recursion only over the schema). */
function firstIssueBelow(schema: z.ZodType, value: unknown, path: PropertyKey[]): SchemaIssue {
  const tooMany: SchemaIssue = { path, message: 'holds too many invalid entries to list' };
  if ((schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) && value != null)
    return firstIssueBelow(schema.unwrap() as z.ZodType, value, path);
  if (schema instanceof z.ZodArray && Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const issue = firstIssue(schema.element as z.ZodType, item, [...path, i]);
      if (issue) return issue;
    }
    return tooMany;
  }
  if (schema instanceof z.ZodObject && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const [key, field] of Object.entries(shape)) {
      const issue = firstIssue(field, (value as Record<string, unknown>)[key], [...path, key]);
      if (issue) return issue;
    }
    return tooMany;
  }
  if (schema instanceof z.ZodRecord && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) {
      const issue = firstIssue(schema.valueType as z.ZodType, item, [...path, key]);
      if (issue) return issue;
    }
  }
  return tooMany;
}

/** "fio.host: Invalid input: expected string" for the first few issues. */
export function issuesText(issues: readonly SchemaIssue[], count = 3): string {
  return issues
    .slice(0, count)
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
