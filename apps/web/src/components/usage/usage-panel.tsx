"use client";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { describeError } from "../../lib/errors.ts";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { reads } from "../../lib/query/reads.ts";
import { usageDetail, usageLabel } from "../../lib/usage-label.ts";
import { ActionError } from "../common/action-error.tsx";

const SPANS = [1, 7, 30, 90] as const;

/** B20: what each provider used, per thread and day, from the usage the runs recorded. */
export function UsagePanel() {
  const client = useApi();
  const [days, setDays] = useState<number>(7);
  // The span shown stays until the newly picked one's answer lands (no empty flash between).
  const query = useQuery({ ...reads.usage(client, days), placeholderData: keepPreviousData });
  const summary = query.data ?? null;
  return (
    <div className="page usage">
      <h1>Usage</h1>
      <p>
        <label>
          Over the last{" "}
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {SPANS.map((span) => (
              <option key={span} value={span}>
                {span === 1 ? "day" : `${span} days`}
              </option>
            ))}
          </select>
        </label>
      </p>
      <ActionError
        error={query.error === null ? null : describeError(query.error)}
        prefix="Usage could not be read."
      />
      {summary && summary.totals.length === 0 && (
        <p className="muted">No usage recorded in this time.</p>
      )}
      {summary && summary.totals.length > 0 && (
        <>
          <ul className="plain-list" aria-label="Usage by provider">
            {summary.totals.map((total) => (
              <li key={total.provider} title={usageDetail(total.usage)}>
                <strong>{PROVIDER_LABEL[total.provider]}</strong>: {usageLabel(total.usage)} over{" "}
                {total.runs} run{total.runs === 1 ? "" : "s"}
              </li>
            ))}
          </ul>
          <table className="usage-table">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Provider</th>
                <th scope="col">Thread</th>
                <th scope="col">Runs</th>
                <th scope="col">Usage</th>
              </tr>
            </thead>
            <tbody>
              {summary.rows.map((row) => (
                <tr key={`${row.day}|${row.provider}|${row.threadId}`}>
                  <td>{row.day}</td>
                  <td>{PROVIDER_LABEL[row.provider]}</td>
                  <td>
                    <Link href={`/threads/${row.threadId}`}>{row.threadTitle}</Link>
                  </td>
                  <td>{row.runs}</td>
                  <td title={usageDetail(row.usage)}>{usageLabel(row.usage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
