import { useEffect, useId, useState, type ReactNode } from 'react';
import type { SeenField } from '../../../shared/contract/filter-lab.js';
import { useClient } from '../../app/client-context.js';
import { addField } from './add-field.js';

/** The fields seen in the newest stored payloads of these webhooks, most common first. */
function useSeenFields(uids: readonly string[]): SeenField[] {
  const client = useClient();
  const key = [...uids].sort().join(',');
  const [fields, setFields] = useState<{ key: string; items: SeenField[] }>();
  useEffect(() => {
    if (key === '') return;
    let current = true;
    void Promise.allSettled(
      key.split(',').map((uid) => client.call('webhooks.fields', { uid })),
    ).then((results) => {
      if (!current) return;
      const merged = new Map<string, SeenField>();
      for (const result of results) {
        if (result.status !== 'fulfilled') continue;
        for (const field of result.value.items) {
          const seen = merged.get(field.path);
          merged.set(field.path, seen ? { ...seen, seenIn: seen.seenIn + field.seenIn } : field);
        }
      }
      const items = [...merged.values()].sort(
        (a, b) => b.seenIn - a.seenIn || a.path.localeCompare(b.path),
      );
      setFields({ key, items });
    });
    return () => {
      current = false;
    };
  }, [client, key]);
  return fields?.key === key ? fields.items : [];
}

/**
 * Field autocomplete for the payload filter: type a field's name and pick from the paths seen
 * in stored payloads (each with an example value); Add puts it in the filter to edit.
 */
export function FieldPicker({
  webhookIds,
  filterText,
  readOnly,
  onChange,
}: {
  webhookIds: readonly string[];
  filterText: string;
  readOnly: boolean;
  onChange: (filterText: string) => void;
}): ReactNode {
  const id = useId();
  const fields = useSeenFields(webhookIds);
  const [path, setPath] = useState('');
  const [note, setNote] = useState<string>();
  if (webhookIds.length === 0 || fields.length === 0) return null;
  const field = fields.find((f) => f.path === path.trim());
  const add = (): void => {
    if (!field) {
      setNote(`No stored payload has ${path.trim() || 'that field'}; pick one from the list.`);
      return;
    }
    const result = addField(filterText, field);
    if (!result.ok) {
      setNote(result.message);
      return;
    }
    onChange(result.text);
    setNote(`Added ${field.path} = ${field.example}; edit the value as you need.`);
    setPath('');
  };
  return (
    <div className="field-picker">
      <label htmlFor={`${id}-field`}>Add a field seen in stored payloads</label>
      <div className="field-picker-row">
        <input
          id={`${id}-field`}
          list={`${id}-fields`}
          value={path}
          placeholder={fields[0]?.path}
          spellCheck={false}
          autoComplete="off"
          disabled={readOnly}
          onChange={(event) => {
            setPath(event.target.value);
            setNote(undefined);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <datalist id={`${id}-fields`}>
          {fields.map((f) => (
            <option key={f.path} value={f.path} label={`${f.example} · in ${f.seenIn}`} />
          ))}
        </datalist>
        <button type="button" disabled={readOnly || path.trim() === ''} onClick={add}>
          Add
        </button>
      </div>
      {field && (
        <p className="hint">
          For example {field.example} ({field.type}).
        </p>
      )}
      {note && (
        <p className="hint" role="status">
          {note}
        </p>
      )}
    </div>
  );
}
