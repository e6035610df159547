'use client';

import { useEffect, useMemo, useState } from 'react';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type ColumnFiltersState, type PaginationState, type SortingState } from '@tanstack/react-table';
import { TRIAL_FILTER_KEYS, type TrialPage, type TrialRow } from './runs/trial-query';
import { StatusBadge } from './StatusBadge';
import { formatInt, orderLabel } from './format';
import { TRIAL_PAGE_SIZES, trialStateFromParams, withTrialState } from './runs/trial-url';
import { urls } from '@/lib/urls';

const col = createColumnHelper<TrialRow>();

/**
 * A run's trials, fetched a page at a time from GET /api/runs/[id]/trials (sorting, filters and paging are
 * done server-side, so a 20k-trial run never ships whole to the browser). Each row links to its trial page.
 */
export function TrialsTable({ runId, refreshKey }: { runId: string; refreshKey?: string }) {
  // filters, sort and page start from the URL and are written back to it (components/runs/trial-url.ts)
  const searchParams = useSearchParams();
  const [initial] = useState(() => trialStateFromParams(new URLSearchParams(searchParams.toString())));
  const [sorting, setSorting] = useState<SortingState>(initial.sorting);
  const [filters, setFilters] = useState<ColumnFiltersState>(initial.filters);
  const [pagination, setPagination] = useState<PaginationState>(initial.pagination);
  const [data, setData] = useState<TrialPage | null>(null);
  const [error, setError] = useState<string | null>(null);

  const columns = useMemo(
    () => [
      col.accessor('study', { header: 'Study' }),
      col.accessor('scenario', { header: 'Scenario' }),
      col.accessor('locale', { header: 'Locale' }),
      col.accessor('caseId', { header: 'Case', cell: (c) => <span className="mono small">{c.getValue()}</span> }),
      col.accessor('condition', { header: 'Condition' }),
      col.accessor('order', { header: 'Order', cell: (c) => orderLabel(c.getValue()) }),
      col.accessor('replicate', { header: 'Rep.' }),
      col.accessor('status', { header: 'Status', cell: (c) => <StatusBadge status={c.getValue()} /> }),
      col.accessor('categories', { header: 'Failure categories', enableSorting: false, cell: (c) => <span className="small mono">{c.getValue().join(', ')}</span> }),
      col.display({
        id: 'open',
        header: '',
        cell: (c) => (
          <Link href={urls.trial(runId, c.row.original.id)} data-testid="trial-link">
            open
          </Link>
        ),
      }),
    ],
    [runId],
  );

  const query = useMemo(() => {
    const q = new URLSearchParams({ page: String(pagination.pageIndex), size: String(pagination.pageSize) });
    if (sorting[0]) {
      q.set('sort', sorting[0].id);
      q.set('dir', sorting[0].desc ? 'desc' : 'asc');
    }
    for (const f of filters) if (typeof f.value === 'string' && f.value) q.set(f.id, f.value);
    return q.toString();
  }, [sorting, filters, pagination]);

  useEffect(() => {
    // the browser's own history (Next keeps useSearchParams in step) — not router.replace, which would
    // render the whole run page on the server again for every filter change
    const current = new URLSearchParams(window.location.search);
    const next = withTrialState(current, {
      sorting,
      filters: filters.flatMap((f) => (typeof f.value === 'string' ? [{ id: f.id, value: f.value }] : [])),
      pagination,
    });
    if (next.toString() !== current.toString()) {
      const qs = next.toString();
      window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`);
    }
  }, [sorting, filters, pagination]);

  useEffect(() => {
    const ctrl = new AbortController();
    fetch(urls.api.runTrials(runId, query), { signal: ctrl.signal, cache: 'no-store' })
      .then(async (res) => {
        if (!res.ok) throw new Error(((await res.json()) as { error?: string }).error ?? `HTTP ${res.status}`);
        setData((await res.json()) as TrialPage);
        setError(null);
      })
      .catch((e: Error) => {
        if (e.name !== 'AbortError') setError(e.message);
      });
    return () => ctrl.abort();
  }, [runId, query, refreshKey]);

  const table = useReactTable({
    data: data?.rows ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    rowCount: data?.matching ?? 0,
    state: { sorting, columnFilters: filters, pagination },
    onSortingChange: (u) => {
      setSorting(u);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    onColumnFiltersChange: (u) => {
      setFilters(u);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    getRowId: (r) => r.id,
  });

  return (
    <section data-testid="trials-table">
      <div className="filters">
        {TRIAL_FILTER_KEYS.map((key) => (
          <div key={key}>
            <label htmlFor={`filter-${key}`}>{key}</label>
            <select
              id={`filter-${key}`}
              value={(table.getColumn(key)?.getFilterValue() as string | undefined) ?? ''}
              onChange={(e) => table.getColumn(key)?.setFilterValue(e.target.value || undefined)}
            >
              <option value="">all</option>
              {(data?.facets[key] ?? []).map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      {error && <div className="errors">{error}</div>}
      <div className="table-scroll">
        <table className="compact">
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  return (
                    <th key={h.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {h.column.getCanSort() ? (
                        <button type="button" className="sort" onClick={h.column.getToggleSortingHandler()}>
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <button type="button" onClick={() => table.previousPage()} disabled={!table.getCanPreviousPage()}>
          ← Previous
        </button>
        <span className="small" data-testid="trials-page">
          page {pagination.pageIndex + 1} of {Math.max(1, table.getPageCount())} · {formatInt(data?.matching ?? 0)} matching of {formatInt(data?.total ?? 0)} trials
        </span>
        <button type="button" onClick={() => table.nextPage()} disabled={!table.getCanNextPage()}>
          Next →
        </button>
        <select aria-label="rows per page" value={pagination.pageSize} onChange={(e) => table.setPageSize(Number(e.target.value))}>
          {TRIAL_PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n} per page
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
