import { MSG } from "@enmusubi/shared";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "../../test/render";
import { PhotoPicker } from "./PhotoPicker";

describe("PhotoPicker", () => {
  it("refuses a file that is not an image with the catalogue's message", async () => {
    const onChange = vi.fn();
    const { container } = renderWithProviders(<PhotoPicker current={null} onChange={onChange} />);
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File(["hello"], "note.txt", { type: "text/plain" }), { applyAccept: false });
    expect(await screen.findByText(MSG.imageOnly)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("offers removal only when there is a photo, and reports null", async () => {
    const onChange = vi.fn();
    renderWithProviders(<PhotoPicker current="/uploads/photos/abc.jpg" onChange={onChange} />);
    await userEvent.click(screen.getByRole("button", { name: "写真を削除" }));
    expect(onChange).toHaveBeenCalledWith(null);
  });

  it("has no remove button without a photo", () => {
    renderWithProviders(<PhotoPicker current={null} onChange={vi.fn()} />);
    expect(screen.queryByRole("button", { name: "写真を削除" })).not.toBeInTheDocument();
  });
});
