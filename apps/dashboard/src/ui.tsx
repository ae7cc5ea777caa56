import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';

let nextId = 0;
/** An id to tie a label to its control. */
export function useId(prefix: string): string {
  const [id] = useState(() => `${prefix}-${++nextId}`);
  return id;
}

/** Loads data, again whenever a dependency changes (a live tick among them); the last answer stays shown while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: unknown; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && (setData(value), setError(null)),
      (failure) => current && setError(failure),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { data, error, reload: useCallback(() => setRound((n) => n + 1), []) };
}

/** Runs an action from a button or form and keeps its outcome to show. */
export function useAction<A extends unknown[], T>(action: (...args: A) => Promise<T>): { run: (...args: A) => Promise<void>; busy: boolean; error: unknown; result: T | undefined } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<T | undefined>(undefined);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    setResult(undefined);
    try {
      setResult(await action(...args));
    } catch (failure) {
      setError(failure);
      setResult(undefined);
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, result };
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const status = error instanceof ApiError ? `${error.status} ` : '';
  const token = error instanceof ApiError && typeof error.body.token === 'string' ? error.body.token : null;
  return (
    <p class="error" role="alert">
      <strong>{status}</strong>
      {error instanceof Error ? error.message : String(error)}
      {token && (
        <>
          {' '}
          (transaction <a href={`#/transactions/${token}`}>{token}</a>)
        </>
      )}
    </p>
  );
}

/** A form laid out in a row; submitting it runs `onSubmit` instead of loading a page. */
export function InlineForm({ onSubmit, children }: { onSubmit: () => void; children: ComponentChildren }) {
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A secret shown once, where it was issued. */
export function SecretNote({ secret }: { secret: string }) {
  return (
    <p role="status">
      Signing secret: <code>{secret}</code>
    </p>
  );
}

export function Field(props: { label: string; children: (id: string) => ComponentChildren; hint?: string }) {
  const id = useId('field');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children(id)}
      {props.hint && <small>{props.hint}</small>}
    </div>
  );
}

export function TextField(props: { label: string; value: string; onInput: (value: string) => void; type?: 'text' | 'date' | 'datetime-local' | 'password' | 'url'; placeholder?: string; hint?: string; required?: boolean; name?: string }) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id) => (
        <input
          id={id}
          name={props.name}
          type={(props.type ?? 'text') as 'text'}
          value={props.value}
          placeholder={props.placeholder}
          required={props.required}
          onInput={(event) => props.onInput((event.target as HTMLInputElement).value)}
        />
      )}
    </Field>
  );
}

export function SelectField(props: { label: string; value: string; options: readonly (string | [string, string])[]; onChange: (value: string) => void; name?: string }) {
  return (
    <Field label={props.label}>
      {(id) => (
        <select id={id} name={props.name} value={props.value} onChange={(event) => props.onChange((event.target as HTMLSelectElement).value)}>
          {props.options.map((option) => {
            const [value, text] = Array.isArray(option) ? option : [option, option || 'any'];
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

export function Pager(props: { page: number; totalPages?: number; hasMore: boolean; onPage: (page: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span>
        Page {props.page}
        {props.totalPages !== undefined ? ` of ${Math.max(props.totalPages, 1)}` : ''}
      </span>
      <button type="button" disabled={!props.hasMore} onClick={() => props.onPage(props.page + 1)}>
        Next page
      </button>
    </nav>
  );
}

export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value.toLowerCase()}`}>{value}</span>;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso.includes('T') || iso.endsWith('Z') ? iso : `${iso.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}
