export { BlockButton, useBlockRefresh } from "./BlockButton";
export { ReportButton, ReportDialog, type ReportTarget } from "./ReportDialog";
export { SAFETY_TEXT } from "./text";
