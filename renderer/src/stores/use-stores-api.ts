import { useContext } from 'react';
import { StoresContext, type Stores } from './index.ts';

/** The slices themselves, for effects that call actions (loading on mount). */
export function useStoresApi(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresContext is missing');
  return stores;
}
