/** Small shared pieces: a page frame with its heading, an error box, a loading line. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
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
