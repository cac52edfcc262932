// What the support e2e tests about items share: the item queries.

export const ITEMS = '/data/v1/items/show';
export const HISTORY = '/data/v1/items/show/history';
