export { DataExportSection } from './DataExportSection'
export { RetentionNotice } from './RetentionNotice'
