// Shared states of every page: loading, a refusal or error said in words, empty.
import { useEffect, useState, type ReactNode } from 'react';
import { errorText } from './api/client';

export type Loaded<T> =
  | { state: 'loading' }
  | { state: 'error'; status?: number; message: string }
  | { state: 'ready'; data: T };

/** Runs an admin API call (openapi-fetch result) and keeps its outcome as a page state. */
export function useApi<T>(
  call: () => Promise<{ data?: T; error?: unknown; response: Response }>,
  deps: unknown[],
): [Loaded<T>, () => void] {
  const [value, setValue] = useState<Loaded<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setValue({ state: 'loading' });
    call().then(
      (r) => {
        if (!live) return;
        if (r.data !== undefined && r.response.ok) setValue({ state: 'ready', data: r.data });
        else
          setValue({ state: 'error', status: r.response.status, message: errorText(r.error, r.response.status) });
      },
      (e: unknown) => live && setValue({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return [value, () => setTick((t) => t + 1)];
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Refusal({ status, message }: { status?: number; message: string }) {
  const title = status === 403 ? 'Not allowed' : status === 401 ? 'Signed out' : 'Something went wrong';
  return (
    <div className="refusal" role="alert">
      <strong>{title}.</strong> {message}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function Show<T>({ value, what, children }: { value: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (value.state === 'loading') return <Loading what={what} />;
  if (value.state === 'error') return <Refusal status={value.status} message={value.message} />;
  return <>{children(value.data)}</>;
}

export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
