export type { FieldKind, LandingExpect, Point, SecretGuard } from './action-fields.js';
export {
  fieldKindSchema,
  landingExpectSchema,
  pointSchema,
  secretGuardSchema,
} from './action-fields.js';
export type { Action, ActionType } from './actions.js';
export {
  actionContracts,
  actionPoints,
  actionSchema,
  actionTypes,
  DEFAULT_SCROLL_AMOUNT,
  MAX_WAIT_MS,
} from './actions.js';
export type { ActionContract, ActionLands } from './define-action.js';
export type {
  DownloadEntry,
  DownloadKind,
  DownloadList,
  DownloadPolicy,
  DownloadRefusal,
} from './downloads.js';
export {
  DEFAULT_DOWNLOAD_KINDS,
  downloadEntrySchema,
  downloadKinds,
  downloadListSchema,
  downloadNameSchema,
  downloadPolicySchema,
  downloadRefusals,
  downloadRoutes,
  isControlChar,
  MAX_DOWNLOAD_NAME_CHARS,
} from './downloads.js';
export type { NetworkEntry, NetworkEvidence, NetworkRequestKind } from './evidence.js';
export {
  evidenceUrl,
  MAX_EVIDENCE_ENTRIES,
  networkEntrySchema,
  networkEvidenceSchema,
  STATE_CHANGING_METHODS,
} from './evidence.js';
export type {
  LandingDestination,
  LandingElement,
  LandingFrame,
  LandingRequest,
  LandingResponse,
  LandingTarget,
} from './landing.js';
export {
  landingDestinationSchema,
  landingElementSchema,
  landingFrameSchema,
  landingRequestSchema,
  landingResponseSchema,
  landingTargetSchema,
} from './landing.js';
export type {
  ActionResult,
  ActionsRequest,
  ActionsResponse,
  Box,
  ElementsResponse,
  ErrorCode,
  ErrorInfo,
  HealthResponse,
  PageElement,
  PageState,
  ScreenshotMeta,
  ToolNamespace,
  ToolsResponse,
} from './schema.js';
export {
  actionResultSchema,
  actionsRequestSchema,
  actionsResponseSchema,
  elementSchema,
  elementsResponseSchema,
  errorBodySchema,
  errorCodeSchema,
  healthResponseSchema,
  MAX_ACTIONS_PER_REQUEST,
  MAX_REQUEST_BODY_BYTES,
  pageStateSchema,
  screencastQuerySchema,
  screenshotHeaders,
  screenshotMetaSchema,
  screenshotQuerySchema,
  toolsResponseSchema,
} from './schema.js';
export type {
  OriginStorage,
  SessionBundle,
  SessionCookie,
  SessionImportResponse,
} from './session.js';
export {
  originStorageSchema,
  SESSION_LIMITS,
  sessionBundleSchema,
  sessionCookieSchema,
  sessionExportRequestSchema,
  sessionImportResponseSchema,
  sessionOriginSchema,
} from './session.js';
export type {
  IndexedDbDatabase,
  OriginIndexedDb,
} from './session-indexeddb.js';
export {
  indexedDbSkipReasons,
  indexedDbTotals,
  originIndexedDbSchema,
  TYPED_ARRAYS,
  taggedValueProblem,
} from './session-indexeddb.js';
export type {
  CaptchaKind,
  InputReport,
  PageSignals,
  SupervisorInput,
} from './takeover.js';
export {
  captchaKinds,
  inputReportSchema,
  inputRequestSchema,
  pageSignalsSchema,
  signalsQuerySchema,
  supervisorInputSchema,
} from './takeover.js';
export type { UploadDecision, UploadEvent, UploadFile, UploadList } from './uploads.js';
export {
  MAX_UPLOAD_BYTES,
  uploadDecisionSchema,
  uploadEventSchema,
  uploadFileSchema,
  uploadListSchema,
  uploadOutcomes,
  uploadRoutes,
} from './uploads.js';
