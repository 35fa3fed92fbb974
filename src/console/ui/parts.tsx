/** Small shared pieces: a page frame with its heading, an error box, a loading line. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describe } from './api.js';

/** Each page's heading takes the focus when the page opens, so keyboard and screen-reader users land on it. */
export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = `${title} · Gatehouse console`;
  }, [title]);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {describe(error)}
    </p>
  );
}

export const Loading = () => (
  <p class="muted" aria-live="polite">
    Loading…
  </p>
);

/** A polite live region: what an action just did. */
export function Notice({ text }: { text: string }) {
  return (
    <p class="notice" role="status" aria-live="polite">
      {text}
    </p>
  );
}

export const usd = (amount: string) => (amount.startsWith('-') ? `−$${amount.slice(1)}` : `$${amount}`);
export const when = (iso: string) => new Date(iso).toLocaleString();

export interface Column<T> {
  label: string;
  /** A cell's class (`num` right-aligns figures). */
  class?: string;
  cell(row: T): ComponentChildren;
}

/** A table with a caption (hidden unless `showCaption`), column headers and one row per item. */
export function DataTable<T>({
  caption,
  showCaption,
  columns,
  rows,
  keyOf,
}: {
  caption: string;
  showCaption?: boolean;
  columns: Column<NoInfer<T>>[];
  rows: T[];
  keyOf(row: NoInfer<T>): string;
}) {
  return (
    <table>
      <caption class={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map(c => (
            <th scope="col" key={c.label} class={c.class}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(row => (
          <tr key={keyOf(row)}>
            {columns.map(c => (
              <td key={c.label} class={c.class}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "Name (type)" and "App env": how a resource of any app is named in the person's pages. */
const resourceCell = (r: { name: string; type: string }) => (
  <>
    {r.name} <span class="muted">({r.type})</span>
  </>
);
const appCell = (r: { appName: string; env: string }) => (
  <>
    {r.appName} <span class="muted">{r.env}</span>
  </>
);

/** The first two columns of the person's tables of resources in every app. */
export const resourceInAppColumns: Column<{ name: string; type: string; appName: string; env: string }>[] = [
  { label: 'Resource', cell: resourceCell },
  { label: 'App', cell: appCell },
];

/** A labelled text field; `multiline` for a textarea. */
export function Field({
  id,
  label,
  value,
  set,
  multiline,
  type = 'text',
  hint,
  required,
}: {
  id: string;
  label: string;
  value: string;
  set(value: string): void;
  multiline?: boolean;
  type?: 'text' | 'password';
  hint?: string;
  required?: boolean;
}) {
  const onInput = (e: Event) => set((e.target as HTMLInputElement).value);
  return (
    <p class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea id={id} value={value} onInput={onInput} rows={6} aria-describedby={hint ? `${id}-hint` : undefined} required={required} />
      ) : (
        <input
          id={id}
          type={type as 'text'}
          value={value}
          onInput={onInput}
          aria-describedby={hint ? `${id}-hint` : undefined}
          required={required}
          autoComplete="off"
        />
      )}
      {hint && (
        <span id={`${id}-hint`} class="muted hint">
          {hint}
        </span>
      )}
    </p>
  );
}

/** Runs an action for a form: its failure shown, its notice announced. */
export function useAction() {
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setFailure(null);
    setBusy(true);
    try {
      await action();
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };
  return { failure, busy, run };
}

/** A labelled choice among names. */
export function Select({
  id,
  label,
  options,
  value,
  set,
}: {
  id: string;
  label: string;
  options: string[];
  value: string;
  set(value: string): void;
}) {
  return (
    <p class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={e => set((e.target as HTMLSelectElement).value)}>
        {options.map(o => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </p>
  );
}
