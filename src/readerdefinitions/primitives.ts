// The shared codecs, under the name this slice's files import them by.
export * from '../core/codecs';
