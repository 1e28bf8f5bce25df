// The one pagination helper: page/per_page in, the spec's `meta` out.
export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  has_more: boolean;
}

export const PER_PAGE_DEFAULT = 10;
export const PER_PAGE_MAX = 50;

export function pageRequest(query: { page?: number; per_page?: number }): PageRequest {
  return { page: query.page ?? 1, perPage: query.per_page ?? PER_PAGE_DEFAULT };
}

export function offsetOf(request: PageRequest): number {
  return (request.page - 1) * request.perPage;
}

export function pageMeta(request: PageRequest, total: number): PageMeta {
  const lastPage = Math.max(1, Math.ceil(total / request.perPage));
  return {
    current_page: request.page,
    last_page: lastPage,
    per_page: request.perPage,
    total,
    has_more: request.page < lastPage,
  };
}
