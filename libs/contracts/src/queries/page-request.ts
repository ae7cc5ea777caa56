/**
 * How a list request pages: by page number (the spec's style) or by cursor (Lithic's). A cursor
 * request names at most one item, the page starts after it (`startingAfter`) or ends before it
 * (`endingBefore`); with neither it starts at the head of the list.
 */
export type PageRequest =
  | { readonly style: 'page'; readonly page: number; readonly pageSize: number }
  | { readonly style: 'cursor'; readonly pageSize: number; readonly startingAfter?: string; readonly endingBefore?: string };
