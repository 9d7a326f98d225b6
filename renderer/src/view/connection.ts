// Browser mode's socket state, for the "disconnected" banner.
import { createStore } from 'zustand/vanilla';

export const connectionStore = createStore<{ state: 'connecting' | 'open' | 'closed' }>()(() => ({ state: 'connecting' }));

export const connection = {
  set(state: 'open' | 'closed') {
    connectionStore.setState({ state });
  },
};
