import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FileCheck, Upload } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import {
  Button,
  cx,
  FileUpload,
  type FileUploadHandle,
  FormError,
  focusRing,
  Paragraph,
  useToast,
} from '@/design-system'
import {
  ProvisioningApiError,
  ROSTER_MAX_BYTES,
  type RosterResult,
  type RosterRow,
  rosterUpload,
} from '../provisioningApi'

/** Rows shown in the table; the counts above it cover every row. */
const ROWS_SHOWN = 200

const ACTION_LABELS: Record<string, string> = {
  create: 'Add',
  update: 'Update',
  deactivate: 'Deactivate',
  reactivate: 'Reactivate',
  error: 'Skipped',
}
const CHANGE_LABELS: Record<string, string> = {
  employee_id: 'employee id',
  first_name: 'first name',
  last_name: 'last name',
}

function detail(row: RosterRow): string {
  if (row.action === 'error') return row.reason
  if (row.changes.length)
    return `Changes ${row.changes.map((c) => CHANGE_LABELS[c] ?? c).join(', ')}`
  return ''
}

function changeCount(result: RosterResult): number {
  const { create, update, deactivate, reactivate } = result.counts
  return create + update + deactivate + reactivate
}

const changesText = (count: number) => `${count.toLocaleString()} change${count === 1 ? '' : 's'}`

function Summary({ result }: { result: RosterResult }) {
  const { counts } = result
  const items: [string, number][] = [
    [result.applied ? 'added' : 'to add', counts.create],
    [result.applied ? 'updated' : 'to update', counts.update],
    [result.applied ? 'deactivated' : 'to deactivate', counts.deactivate],
    [result.applied ? 'reactivated' : 'to reactivate', counts.reactivate],
    ['unchanged', counts.unchanged],
    [`${counts.error === 1 ? 'row' : 'rows'} with errors (skipped)`, counts.error],
  ]
  return (
    <ul className="flex flex-wrap gap-2" aria-label={result.applied ? 'Import result' : 'Preview'}>
      {items.map(([label, count]) => (
        <li
          key={label}
          className={
            label.endsWith('with errors (skipped)') && count > 0
              ? 'rounded-full border border-danger-200 bg-danger-50 px-3 py-1 text-sm text-danger-800'
              : 'rounded-full border border-line bg-surface-muted px-3 py-1 text-sm text-ink'
          }
        >
          <span className="font-semibold tabular-nums">{count.toLocaleString()}</span> {label}
        </li>
      ))}
    </ul>
  )
}

function RowsTable({ result }: { result: RosterResult }) {
  const rows = result.rows.slice(0, ROWS_SHOWN)
  if (rows.length === 0) return null
  const more =
    result.counts.create +
    result.counts.update +
    result.counts.deactivate +
    result.counts.reactivate +
    result.counts.error -
    rows.length
  return (
    <div className="flex flex-col gap-2">
      {/* A table from the small breakpoint up, scrolling on its own for a long file (so it
          takes the focus, for the keys to scroll it); on a phone, one card per row. */}
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
        tabIndex={0}
        aria-label={result.applied ? 'Rows imported, scrollable' : 'Rows to import, scrollable'}
        className={cx(
          'hidden max-h-96 overflow-auto rounded-2xl border border-line bg-surface shadow-xs sm:block',
          focusRing,
        )}
      >
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            {result.applied ? 'What the import changed' : 'What the import will change'}, row by row
          </caption>
          <thead className="sticky top-0 bg-surface-muted text-ink-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Row
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Email
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Change
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Details
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.row} className={row.action === 'error' ? 'bg-danger-50' : undefined}>
                <td className="px-3 py-2 tabular-nums text-ink-muted">{row.row}</td>
                <td className="max-w-48 truncate px-3 py-2 text-ink sm:max-w-none">
                  {row.email || '—'}
                </td>
                <td
                  className={
                    row.action === 'error'
                      ? 'px-3 py-2 font-semibold text-danger-800'
                      : 'px-3 py-2 font-semibold text-ink'
                  }
                >
                  {ACTION_LABELS[row.action] ?? row.action}
                </td>
                <td className="min-w-48 px-3 py-2 text-ink-muted">{detail(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <ul
        aria-label={result.applied ? 'Rows imported' : 'Rows to import'}
        className="flex max-h-[28rem] flex-col divide-y divide-line overflow-y-auto rounded-2xl border border-line bg-surface shadow-xs sm:hidden"
      >
        {rows.map((row) => (
          <li
            key={row.row}
            className={cx(
              'flex flex-col gap-0.5 p-3 text-sm',
              row.action === 'error' && 'bg-danger-50',
            )}
          >
            <p className="flex justify-between gap-2">
              <span className="truncate text-ink">{row.email || '—'}</span>
              <span
                className={cx(
                  'shrink-0 font-semibold',
                  row.action === 'error' ? 'text-danger-800' : 'text-ink',
                )}
              >
                {ACTION_LABELS[row.action] ?? row.action}
              </span>
            </p>
            <p className="text-ink-muted">
              Row {row.row}
              {detail(row) ? ` · ${detail(row)}` : ''}
            </p>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <Paragraph size="sm" tone="muted">
          The first {rows.length.toLocaleString()} rows are listed; the counts above cover all{' '}
          {(rows.length + more).toLocaleString()}.
        </Paragraph>
      ) : null}
    </div>
  )
}

/**
 * The roster import, for employers without SCIM: a CSV of the staff list is previewed row by
 * row (who is added, updated, deactivated or reactivated, and the rows in error), then
 * applied. People the file does not list are left as they are.
 */
export function RosterImport({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const upload = useRef<FileUploadHandle>(null)
  const resultHeading = useRef<HTMLHeadingElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [result, setResult] = useState<RosterResult | null>(null)
  const [error, setError] = useState<string>()

  const send = useMutation({
    mutationFn: ({ action, chosen }: { action: 'preview' | 'apply'; chosen: File }) =>
      rosterUpload(companyId, action, chosen),
    onMutate: () => setError(undefined),
    onSuccess: (answer) => {
      setResult(answer)
      if (answer.applied) {
        toast({
          message: `Roster imported: ${changesText(changeCount(answer))}.`,
          severity: 'success',
          autoDismiss: true,
        })
        void queryClient.invalidateQueries({ queryKey: ['company', companyId, 'members'] })
      }
    },
    onError: (cause, { action }) => {
      setError(cause instanceof ProvisioningApiError ? cause.message : String(cause))
      // The picker ignores the file it holds: cleared, the same file can be tried again.
      if (action === 'preview') {
        upload.current?.reset()
        setFile(null)
      }
    },
  })

  // The preview or the result takes the focus once it is on the screen.
  useEffect(() => {
    if (result) resultHeading.current?.focus()
  }, [result])

  const choose = (chosen: File) => {
    setFile(chosen)
    setResult(null)
    send.mutate({ action: 'preview', chosen })
  }
  const startOver = () => {
    upload.current?.reset()
    setFile(null)
    setResult(null)
    setError(undefined)
  }

  return (
    <section aria-labelledby="roster-import" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2
          id="roster-import"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-ink outline-none"
        >
          Roster import
        </h2>
        <Paragraph size="sm" tone="muted">
          No identity provider? Upload your staff list as a CSV file with the columns email,
          employee id, first name, last name and status (active or inactive). You see what changes
          before anything is applied; people not in the file are left as they are.
        </Paragraph>
      </div>
      <div className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5">
        <FileUpload
          ref={upload}
          label="Choose a CSV file"
          description="A .csv file, up to 5 MB. Commas or semicolons; a header row first."
          accept=".csv,text/csv"
          maxBytes={ROSTER_MAX_BYTES}
          status={result ? 'uploaded' : 'pending'}
          isDisabled={send.isPending}
          onFileSelected={choose}
          onFileRemoved={startOver}
        />
        <FormError message={error} />
        {send.isPending ? (
          <Paragraph size="sm" role="status">
            {send.variables?.action === 'apply' ? 'Importing…' : 'Checking the file…'}
          </Paragraph>
        ) : null}
        {result ? (
          <div className="flex flex-col gap-3">
            <h3
              ref={resultHeading}
              tabIndex={-1}
              className="text-base font-semibold text-ink outline-none"
            >
              {result.applied ? 'Imported' : 'Preview: nothing has changed yet'}
            </h3>
            <Summary result={result} />
            <RowsTable result={result} />
            {result.applied ? (
              <Button
                variant="secondary"
                icon={<Upload />}
                onClick={() => {
                  startOver()
                  heading.current?.focus() // the button goes away with the result
                }}
                className="self-start"
              >
                Import another file
              </Button>
            ) : (
              <Button
                icon={<FileCheck />}
                className="self-start"
                disabled={changeCount(result) === 0 || !file}
                loading={send.isPending}
                onClick={() => file && send.mutate({ action: 'apply', chosen: file })}
              >
                {changeCount(result) === 0
                  ? 'Nothing to import'
                  : `Import ${changesText(changeCount(result))}`}
              </Button>
            )}
          </div>
        ) : null}
      </div>
    </section>
  )
}
