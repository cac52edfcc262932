// Request bodies that are valid as they stand; tests change one thing.
type Details = Record<string, unknown>;

export const inventoryBody = (configuration: Details = {}, name = 'inv'): Record<string, unknown> => ({
  name,
  operation: 'INVENTORY',
  configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', ...configuration },
});

export const locationBody = (configuration: Details = {}, name = 'loc'): Record<string, unknown> => ({
  name,
  operation: 'LOCATION',
  configuration: { readerMode: 'MAX_MILLER', session: 2, ...configuration },
});

export const thresholdBody = (configuration: Details = {}, name = 'thr'): Record<string, unknown> => ({
  name,
  operation: 'THRESHOLD',
  configuration: { readerMode: 'MAX_THROUGHPUT', session: 1, ...configuration },
});

export const normalBody = (configuration: Details = {}, name = 'normal'): Record<string, unknown> => ({
  name,
  operation: 'NORMAL',
  configuration: { readerMode: 'DENSE_READER_M8', session: 1, ...configuration },
});
