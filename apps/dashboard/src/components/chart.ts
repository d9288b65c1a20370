import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { html } from '../html';
import { Table, type Column } from './table';

export interface Series {
  label: string;
  values: (number | null)[];
  /** The 95 % interval, drawn as a filled band between low and high. */
  low?: (number | null)[];
  high?: (number | null)[];
  /** Each point's n, listed in the table under the chart. */
  n?: number[];
  color: string;
}

export const PALETTE = ['#1d4ed8', '#c2410c', '#047857', '#7e22ce', '#a16207', '#be123c'];

const alpha = (hex: string, a: number) => {
  const v = parseInt(hex.slice(1), 16);
  return `rgba(${(v >> 16) & 255}, ${(v >> 8) & 255}, ${v & 255}, ${a})`;
};

/**
 * A daily time series drawn with uPlot (each interval a band), then the same data as a table for
 * every reader (the text alternative, behind a disclosure; the chart itself is presentational). `data-drawn` is set once
 * uPlot has drawn (the benchmark waits for it).
 */
export function TimeChart({ title, dates, series, format, yMin, yMax, height = 260 }: { title: string; dates: string[]; series: Series[]; format: (v: number | null) => string; yMin?: number; yMax?: number; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  // The table is made when it is opened: a long one costs the first paint for nothing.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const data: (number | null)[][] = [xs];
    const opts: uPlot.Series[] = [{}];
    const bands: uPlot.Band[] = [];
    for (const s of series) {
      data.push(s.values);
      opts.push({ label: s.label, stroke: s.color, width: 2, points: { show: false }, value: (_u, v) => format(v) });
      if (s.low && s.high) {
        const hi = data.push(s.high) - 1;
        opts.push({ label: `${s.label} high`, stroke: 'transparent', points: { show: false } });
        const lo = data.push(s.low) - 1;
        opts.push({ label: `${s.label} low`, stroke: 'transparent', points: { show: false } });
        // The first series (the brand) stands out; the others' bands stay faint so they do not hide it.
        bands.push({ series: [hi, lo], fill: alpha(s.color, s === series[0] ? 0.2 : 0.07) });
      }
    }
    el.removeAttribute('data-drawn');
    const width = Math.max(320, el.clientWidth);
    const plot = new uPlot(
      {
        width,
        height,
        series: opts,
        bands,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [yMin ?? min, yMax ?? max] } },
        axes: [
          { stroke: '#3f4754', grid: { stroke: '#e6e8ec' }, ticks: { stroke: '#d0d4da' } },
          { stroke: '#3f4754', grid: { stroke: '#e6e8ec' }, ticks: { stroke: '#d0d4da' }, size: 56, values: (_u, vals) => vals.map((v) => format(v)) },
        ],
        hooks: { draw: [() => el.setAttribute('data-drawn', 'true')] },
      },
      data as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => {
      const w = Math.max(320, el.clientWidth);
      if (Math.abs(w - plot.width) > 2) plot.setSize({ width: w, height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [dates, series, yMin, yMax, height]);

  const rows = dates.map((d, i) => ({ d, i }));
  const columns: Column<{ d: string; i: number }>[] = [
    { label: 'Date (UTC)', render: (r) => r.d },
    ...series.flatMap((s) => [
      { label: s.label, numeric: true, render: (r: { i: number }) => format(s.values[r.i]) },
      ...(s.low && s.high ? [{ label: `${s.label} 95% CI`, numeric: true, render: (r: { i: number }) => (s.low![r.i] === null ? '' : `${format(s.low![r.i])}–${format(s.high![r.i])}`) }] : []),
      ...(s.n ? [{ label: `${s.label} n`, numeric: true, render: (r: { i: number }) => String(s.n![r.i]) }] : []),
    ]),
  ];
  return html`<figure class="chart">
    <ul class="legend" aria-hidden="true">${series.map((s) => html`<li><span class="swatch" style=${{ background: s.color }}></span>${s.label}${s.low ? ' (band: 95% CI)' : ''}</li>`)}</ul>
    <div class="plot" ref=${box} aria-hidden="true"></div>
    <figcaption>
      <details onToggle=${(e: Event) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>${title}: the data as a table</summary>
        ${open ? html`<${Table} caption=${title} columns=${columns} rows=${rows} />` : null}
      </details>
    </figcaption>
  </figure>`;
}
