// All slices, created once per app with the transport's client, and the React hook to read them.
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { ApiClient } from '../api/client.ts';
import { createCompareStore, type CompareState } from './compare.ts';
import { createLibraryStore, type LibraryState } from './library.ts';
import { createReportStore, type ReportState } from './report.ts';
import { createRunsStore, type RunsState } from './runs.ts';
import { createSystemStore, type SystemState } from './system.ts';
import { createWorkingSetStore, type WorkingSetState } from './working-set.ts';
import { createFleetStore, type FleetState } from './fleet.ts';
import { createAssessmentStore, type AssessmentState } from './assessment.ts';
import { createCandidatesStore, type CandidatesState } from './candidates.ts';

export interface Stores {
  client: Pick<ApiClient, 'kind'>;
  runs: StoreApi<RunsState>;
  library: StoreApi<LibraryState>;
  compare: StoreApi<CompareState>;
  system: StoreApi<SystemState>;
  report: StoreApi<ReportState>;
  workingSet: StoreApi<WorkingSetState>;
  fleet: StoreApi<FleetState>;
  assessment: StoreApi<AssessmentState>;
  candidates: StoreApi<CandidatesState>;
}

export function createStores(client: ApiClient): Stores {
  const library = createLibraryStore(client);
  const workingSet = createWorkingSetStore(client);
  // A run that ends adds a record: the library list (and the kept scans) are refreshed then.
  const runs = createRunsStore(client, {
    onFinished: () => {
      void library.getState().load();
      void workingSet.getState().load();
    },
  });
  return {
    client: { kind: client.kind },
    runs,
    library,
    compare: createCompareStore(client),
    system: createSystemStore(client),
    report: createReportStore(client),
    workingSet,
    fleet: createFleetStore(client),
    assessment: createAssessmentStore(client, runs),
    candidates: createCandidatesStore(client),
  };
}

export const StoresContext = createContext<Stores | null>(null);

function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresContext is missing');
  return stores;
}

export const useRuns = <T>(select: (s: RunsState) => T): T => useStore(useStores().runs, select);
export const useLibrary = <T>(select: (s: LibraryState) => T): T => useStore(useStores().library, select);
export const useCompare = <T>(select: (s: CompareState) => T): T => useStore(useStores().compare, select);
export const useSystem = <T>(select: (s: SystemState) => T): T => useStore(useStores().system, select);
export const useReport = <T>(select: (s: ReportState) => T): T => useStore(useStores().report, select);
export const useWorkingSet = <T>(select: (s: WorkingSetState) => T): T => useStore(useStores().workingSet, select);
export const useFleet = <T>(select: (s: FleetState) => T): T => useStore(useStores().fleet, select);
export const useAssessment = <T>(select: (s: AssessmentState) => T): T => useStore(useStores().assessment, select);
export const useCandidates = <T>(select: (s: CandidatesState) => T): T => useStore(useStores().candidates, select);
export const useTransportKind = (): 'electron' | 'browser' => useStores().client.kind;
