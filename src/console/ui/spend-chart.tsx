/**
 * Spend per UTC day by class as a stacked bar chart, drawn as SVG here (a few dozen lines; a chart
 * library would be the largest part of the bundle), with the same figures in a table beside it.
 * Colours come from console.css classes (the CSP allows no inline style). Takes any answer shaped
 * as the API's DailySpend: a person's per-app spend now, an environment's (envSpendByDay) too.
 */
import { usd } from './parts.js';

interface Line {
  readsUsd: string;
  writesUsd: string;
  transferUsd: string;
  storageUsd: string;
  totalUsd: string;
}
export interface DailySpendView {
  since: string;
  until: string;
  days: (Line & { day: string })[];
  total: Line;
}

const CLASSES = [
  { key: 'readsUsd', label: 'Reads' },
  { key: 'writesUsd', label: 'Writes' },
  { key: 'transferUsd', label: 'Transfer' },
  { key: 'storageUsd', label: 'Storage' },
] as const;

const WIDTH = 400;
const HEIGHT = 260;
const AXIS = 20;

export function SpendChart({ id, title, spend }: { id: string; title: string; spend: DailySpendView }) {
  const most = Math.max(...spend.days.map(d => Number(d.totalUsd)), 0);
  const slot = WIDTH / spend.days.length;
  const bar = Math.max(slot * 0.7, 1);
  const plot = HEIGHT - AXIS;
  const spent = spend.days.filter(d => Number(d.totalUsd) > 0);
  return (
    <figure class="spend" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        {title}: <strong>{usd(spend.total.totalUsd)}</strong> from {spend.since} to {spend.until} (UTC)
      </figcaption>
      <div class="spend-body">
        <div>
          <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-svg-title`} class="spend-chart">
            <title id={`${id}-svg-title`}>{title}, spend per day by class; the table beside it has the figures.</title>
            <line x1="0" x2={WIDTH} y1={plot} y2={plot} class="axis" />
            {spend.days.map((d, i) => {
              let top = plot;
              return (
                <g key={d.day}>
                  {CLASSES.map(c => {
                    const height = most > 0 ? (Number(d[c.key]) / most) * (plot - 4) : 0;
                    if (height <= 0) return null;
                    top -= height;
                    return <rect key={c.key} class={`cls-${c.key}`} x={i * slot + (slot - bar) / 2} y={top} width={bar} height={height} />;
                  })}
                </g>
              );
            })}
            <text x="0" y={HEIGHT - 2} class="tick">
              {spend.since}
            </text>
            <text x={WIDTH} y={HEIGHT - 2} class="tick end">
              {spend.until}
            </text>
          </svg>
          <ul class="legend" aria-hidden="true">
            {CLASSES.map(c => (
              <li key={c.key}>
                <span class={`swatch cls-${c.key}`} /> {c.label}
              </li>
            ))}
          </ul>
        </div>
        <table class="spend-table">
          <caption>{spent.length ? 'Days with spend, in dollars' : 'Nothing spent in these days'}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {CLASSES.map(c => (
                <th scope="col" class="num" key={c.key}>
                  {c.label}
                </th>
              ))}
              <th scope="col" class="num">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {spent.map(d => (
              <tr key={d.day}>
                <th scope="row">{d.day}</th>
                {CLASSES.map(c => (
                  <td class="num" key={c.key}>
                    {d[c.key]}
                  </td>
                ))}
                <td class="num">{d.totalUsd}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {CLASSES.map(c => (
                <td class="num" key={c.key}>
                  {spend.total[c.key]}
                </td>
              ))}
              <td class="num">{spend.total.totalUsd}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </figure>
  );
}
