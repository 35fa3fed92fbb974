/** A query's state for a page: loading, its data, or its error; `reload` asks again. */
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export function useData<T>(load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({ data: null, error: null, loading: true });
  const [turn, setTurn] = useState(0);
  // Runs again when `turn` changes (reload), not when `load` (a new closure each render) does.
  useEffect(() => {
    let live = true;
    setState(s => ({ ...s, loading: true }));
    load().then(
      data => live && setState({ data, error: null, loading: false }),
      error => live && setState({ data: null, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [turn]);
  const reload = useCallback(() => setTurn(t => t + 1), []);
  return { ...state, reload };
}
