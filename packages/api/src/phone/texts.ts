import { PHONE_VERIFICATION } from "@enmusubi/shared";

/** The SMS a code goes out in: the service's name, the code, its validity, a warning. */
export function codeSmsText(code: string): string {
  return `【縁結び】確認コード：${code}（${PHONE_VERIFICATION.codeTtlMinutes}分間有効）。このコードは誰にも教えないでください。`;
}
