/** The API's response shapes the dashboard reads (DESIGN §14: a rate is {value, n, low, high}). */
export interface Rate {
  value: number | null;
  n: number;
  low: number | null;
  high: number | null;
}
export interface Mean {
  value: number | null;
  n: number;
}
export interface Entity {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}
export interface Point extends Rate {
  date: string;
}
export interface Page<T> {
  data: T[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean };
}
