// The Library page's From/To dates as the API's ISO datetimes. A date input can hold a value
// no Date can represent (year 275760 and beyond): that filters nothing instead of throwing a
// RangeError into React.
export function dayBoundary(value: string, endOfDay: boolean): string | undefined {
  if (!value) return undefined;
  const at = new Date(`${value}T${endOfDay ? '23:59:59' : '00:00:00'}`);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}
