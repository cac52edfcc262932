// What src/llrp offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { LlrpCertificateError, LlrpClient, type LlrpTls } from './client';
export { IMPINJ, IMPINJ_VALUES, MSG, P } from './constants';
export { LlrpFramer, encodeMessage, type LlrpMessage } from './frame';
export { addRoSpec, asksImpinjTemperature, capabilitiesResponse, getImpinjTemperature, readerTemperatureOf, temperatureResponse, closeConnection, decodeAddRoSpec, decodeCapabilities, decodeReaderEvent, decodeTagReads, getReaderCapabilities, impinjEnableExtensions, keepaliveAck, readKeepaliveSpec, readerEventNotification, roAccessReport, roSpecCommand, roSpecIdOf, setReaderConfig, statusMessage, statusOf, tagReportData, type AntennaPlan, type Capabilities, type RoSpec, type TagRead } from './messages';
export { encodeParams } from './params';
export { TAGTRAIL_ACCESSSPEC_ID, TID_OPSPEC_ID, TID_WORDS, accessSpecCommand, addTidAccessSpec } from './access';
export { setLocationConfig, type LocationPlan } from './location';
