import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "../../test/render";
import { MessageCard } from "./MessageCard";

const party = { id: "p1", name: "花子", photoLink: null, role: "user" as const };
const message = (extra: { isRead: boolean; sealed: boolean }) => ({
  id: "m1",
  body: "",
  createdAt: new Date("2026-11-01T10:00:00Z"),
  hasReply: false,
  preview: "こんにちは…",
  ...extra,
});

describe("MessageCard's state marker (decisions 0027, 0032)", () => {
  it("sealed and unread: 未読", async () => {
    renderWithProviders(
      <MessageCard message={message({ isRead: false, sealed: true })} party={party} partyLabel="差出人" />,
    );
    expect(await screen.findByTestId("message-state")).toHaveTextContent(/^未読$/);
  });

  it("marked read but never opened (受信): 未開封, not 未読", async () => {
    renderWithProviders(
      <MessageCard message={message({ isRead: true, sealed: true })} party={party} partyLabel="差出人" />,
    );
    expect(await screen.findByTestId("message-state")).toHaveTextContent(/^未開封$/);
  });

  it("opened: no marker", async () => {
    renderWithProviders(
      <MessageCard
        message={{ ...message({ isRead: true, sealed: false }), body: "本文" }}
        party={party}
        partyLabel="差出人"
      />,
    );
    await screen.findByText("本文");
    expect(screen.queryByTestId("message-state")).toBeNull();
  });
});
