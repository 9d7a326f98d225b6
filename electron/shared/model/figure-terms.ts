// The words a figure is described in: its raw unit and where it comes from. Their own module
// because both the result model (results.ts) and the catalog of metrics (catalog.ts) use them,
// and the catalog uses the result model's test parameters: here, neither imports the other back.
//
// Pure data: the renderer bundles this module.

/**
 * Where a run comes from: measured by DiskDelta, imported from a results file, or reference
 * data shipped with it. THE list: the schema, the library's filter, `list --source` read it.
 */
export const RUN_SOURCES = ['measured', 'imported', 'reference'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

/**
 * Where a figure comes from. A run is measured, imported or reference; a single figure may
 * also be *estimated* (a forecast from a model, e.g. encryption cost from cipher speed), which
 * is always shown as such, next to measured figures and never in their place.
 */
export const PROVENANCES = [...RUN_SOURCES, 'estimated'] as const;
export type Provenance = (typeof PROVENANCES)[number];

/**
 * How a result's figure combines its runs: DiskDelta's median (adaptive runs), the best run
 * (CrystalDiskMark keeps its highest of N; the `peak` preset), the mean (KDiskMark's fio loops,
 * fio's bandwidth over its window; the `real-world` preset), or one run alone (bonnie++).
 * A best-of-5 reads higher than a median of the same disk, so compare says when they differ.
 */
export const STATISTICS = ['median', 'best', 'mean', 'single'] as const;
export type Statistic = (typeof STATISTICS)[number];

/** Raw units, as stored: conversion for display happens in analysis/units.ts. */
export const RAW_UNITS = ['bytes/s', 'IOPS', 'seeks/s', 'ns', 's', 'bytes', 'count'] as const;
export type RawUnit = (typeof RAW_UNITS)[number];
