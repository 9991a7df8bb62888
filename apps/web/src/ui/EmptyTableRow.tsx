import { Table, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** The one row a table shows when a loaded page has nothing: dimmed, centred, across every column. */
export function EmptyTableRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text c="dimmed" ta="center" py="md">
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
