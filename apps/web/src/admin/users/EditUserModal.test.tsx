import { MSG } from "@enmusubi/shared";
import { Notifications } from "@mantine/notifications";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { member } from "../../test/fixtures";
import { renderWithProviders } from "../../test/render";
import { UserManagement } from "./UserManagement";

const ID = "00000000-0000-4000-8000-000000000001";

const row = (points: number, sendPoints = 20, name = "花子") => member({ id: ID, points, sendPoints, name });

const page = (user: ReturnType<typeof row>) => ({
  users: [user],
  total: 1,
  totalEstimated: false,
  totalCapped: false,
  allUsers: 1,
  allUsersEstimated: false,
  page: 1,
  pageSize: 50,
  totalPages: 1,
});

/** What the server answers when the balance moved after the screen read it (409 with the current figures). */
const moved = (points: number, sendPoints: number) =>
  new TRPCClientError(MSG.balanceChanged, {
    result: {
      error: {
        code: -32009,
        message: MSG.balanceChanged,
        data: { code: "CONFLICT", httpStatus: 409, details: { points, sendPoints } },
      },
    },
  } as never);

const updates = (calls: { path: string; input: unknown }[]) =>
  calls.filter((c) => c.path === "adminUsers.update" || c.path === "adminUsers.updateSendPoints").map((c) => c.input);

// userEvent typing on a loaded 2-core machine can pass the 5 s default.
describe("user edit sends only what changed", { timeout: 30_000 }, () => {
  it("a rename sends the name alone: no points, no sendPoints", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <UserManagement />
      </>,
      {
        "adminUsers.list": () => page(row(100)),
        "adminUsers.update": () => ({ ...row(1052, 20, "改名"), version: "v2" }),
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "編集" }));
    const dialog = await screen.findByRole("dialog");
    const name = within(dialog).getByLabelText(/名前/);
    await userEvent.clear(name);
    await userEvent.type(name, "改名");
    await userEvent.click(within(dialog).getByRole("button", { name: "更新する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]).toEqual({ id: ID, name: "改名" });
  });

  it("a balance change states the balance it replaces; when it moved, the current figures are shown and the list refreshed", async () => {
    let listed = row(100);
    let refuse = true;
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <UserManagement />
      </>,
      {
        "adminUsers.list": () => page(listed),
        "adminUsers.update": (input) => {
          if (refuse) {
            // The member bought points and sent a message after the list was read.
            listed = row(1052);
            throw moved(1052, 20);
          }
          return { ...listed, points: input.points ?? listed.points, version: "v2" };
        },
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "編集" }));
    const dialog = await screen.findByRole("dialog");
    const points = within(dialog).getByRole("textbox", { name: /^ポイント/ });
    await userEvent.clear(points);
    await userEvent.type(points, "500");
    await userEvent.click(within(dialog).getByRole("button", { name: "更新する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]).toEqual({ id: ID, points: 500, expectedPoints: 100 });

    // Nothing saved: the message with the current figures, the form and the list at 1,052pt.
    expect(await within(dialog).findByText(/現在のポイント: 1,052pt/)).toHaveTextContent(MSG.balanceChanged);
    expect(points).toHaveValue("1052pt");
    const table = screen.getByRole("table", { name: "ユーザー一覧" });
    expect(await within(table).findByText("1,052pt")).toBeInTheDocument();

    // Decided again against the new figure.
    refuse = false;
    await userEvent.clear(points);
    await userEvent.type(points, "1100");
    await userEvent.click(within(dialog).getByRole("button", { name: "更新する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(2));
    expect(updates(calls)[1]).toEqual({ id: ID, points: 1100, expectedPoints: 1052 });
  });

  it("the send-points edit states the figure it replaces and shows the current one when it moved", async () => {
    const { calls } = renderWithProviders(
      <>
        <Notifications />
        <UserManagement />
      </>,
      {
        "adminUsers.list": () => page(row(100, 20)),
        "adminUsers.updateSendPoints": () => {
          throw moved(100, 7);
        },
      },
    );
    await userEvent.click(await screen.findByRole("button", { name: "hanako01の送信ポイントを編集" }));
    const dialog = await screen.findByRole("dialog");
    const field = within(dialog).getByRole("textbox", { name: /送信ポイント/ });
    await userEvent.clear(field);
    await userEvent.type(field, "50");
    await userEvent.click(within(dialog).getByRole("button", { name: "保存する" }));
    await waitFor(() => expect(updates(calls)).toHaveLength(1));
    expect(updates(calls)[0]).toEqual({ id: ID, sendPoints: 50, expectedSendPoints: 20 });
    expect(await within(dialog).findByText(/現在のポイント: 100pt、送信ポイント: 7pt/)).toHaveTextContent(
      MSG.balanceChanged,
    );
    expect(within(dialog).getByText(/の現在の送信ポイント: 7pt/)).toBeInTheDocument();
    expect(field).toHaveValue("7pt");
  });
});
