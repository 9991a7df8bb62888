export { BlockButton, useBlockRefresh } from "./BlockButton";
export { ReportButton, ReportDialog, type ReportTarget, SAFETY_TEXT } from "./ReportDialog";
