// The preload of the sandboxed window: exposes the contract's named verbs, nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge.ts';

contextBridge.exposeInMainWorld('diskdelta', createBridge(ipcRenderer));
