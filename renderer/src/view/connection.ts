// Browser mode's socket state, for the "disconnected" banner.
import { createStore } from 'zustand/vanilla';
import type { ConnectionState } from '../api/ws-transport.ts';

export const connectionStore = createStore<{ state: 'connecting' | ConnectionState }>()(() => ({ state: 'connecting' }));

export const connection = {
  set(state: ConnectionState) {
    connectionStore.setState({ state });
  },
};
