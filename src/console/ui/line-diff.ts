/** A line diff of two texts (longest common subsequence), for comparing two deployed schemas. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // lcs[i][j]: the common subsequence's length of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i++] });
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) out.push({ kind: 'added', text: b[j++] });
    else out.push({ kind: 'removed', text: a[i++] });
  }
  return out;
}

/** The changed lines with `context` unchanged lines around each; null marks lines left out. */
export function changesOnly(lines: DiffLine[], context = 2): (DiffLine | null)[] {
  const near = lines.map((_, k) => lines.slice(Math.max(0, k - context), k + context + 1).some(l => l.kind !== 'same'));
  const out: (DiffLine | null)[] = [];
  lines.forEach((line, k) => {
    if (near[k]) out.push(line);
    else if (out.length && out[out.length - 1] !== null) out.push(null);
  });
  return out;
}
