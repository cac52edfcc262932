// Projects the feature-change streams of readers (`readerFeatures-<reader>`)
// into the hash `<prefix>v1:config:readerFeatures`; the layout and what each
// event writes are in src/readerdefinitions/feature-readmodel.ts.
import type { ConfigProjectionPart } from './part';
import { featureChangeEvents, type FeatureChangeEvent, featureEventWrites, READER_FEATURES_KIND, READER_FEATURES_STREAM_PREFIX } from '../../src/readerdefinitions';

export const readerFeaturesPart: ConfigProjectionPart = {
  streamPrefix: READER_FEATURES_STREAM_PREFIX,
  codecs: featureChangeEvents,
  apply(tx, event, keys) {
    const reader = event.streamId.slice(READER_FEATURES_STREAM_PREFIX.length);
    for (const [field, value] of featureEventWrites(reader, event as unknown as FeatureChangeEvent)) {
      tx.hSet(keys.config(READER_FEATURES_KIND), field, value);
    }
  },
};
