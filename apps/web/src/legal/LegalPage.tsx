import { LEGAL, MSG } from "@enmusubi/shared";
import { Anchor, Box, Container, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { Footer } from "../layout/Footer";
import { useTRPC } from "../lib/trpc";
import { usePageTitle } from "../lib/usePageTitle";
import classes from "../public/public.module.css";
import { ListStates } from "../ui/ListStates";
import type { LegalBlock, LegalDocument } from "./texts";

const WRAP = { overflowWrap: "anywhere" } as const;

function Block({ block }: { block: LegalBlock }) {
  if (block.kind === "p") return <Text size="sm">{block.text}</Text>;
  if (block.kind === "list")
    return (
      <List type={block.ordered ? "ordered" : "unordered"} size="sm" spacing={4} withPadding>
        {block.items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List>
    );
  // Cells that may break anywhere: long values (an unset operator field, a URL) wrap at 320 px
  // instead of pushing the table off the screen. The columns share the width by their content
  // (not equally), with narrower cell margins on a phone, so that words such as プロフィール or
  // 消費ポイント stay whole in a column of their own size.
  return (
    <Table withTableBorder withColumnBorders fz="sm" aria-label={block.label} className={classes.legalTable}>
      <Table.Thead>
        <Table.Tr>
          {block.head.map((cell) => (
            <Table.Th key={cell} style={WRAP}>
              {cell}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {block.rows.map((row) => (
          <Table.Tr key={row[0]}>
            {row.map((cell, i) => (
              <Table.Td key={`${i}-${cell}`} style={WRAP}>
                {cell}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A legal page, open to everyone (spec §2 Public). Its figures (rate, limits, methods, fees,
 * operator) are read from `legal.info`, the same source as the purchase screen.
 */
export function LegalPage({ document: doc }: { document: LegalDocument }) {
  const trpc = useTRPC();
  const info = useQuery(trpc.legal.info.queryOptions());
  usePageTitle(doc.title);
  return (
    <Box className={classes.page}>
      <Container component="main" size={820} className={classes.container} pb="xl">
        <Paper withBorder p={{ base: "md", sm: "xl" }}>
          <Stack gap="lg">
            <Anchor component={Link} to="/login" size="sm">
              ← ログイン画面へ
            </Anchor>
            <Title order={1} size="h2" className={classes.legalTitle}>
              {doc.title}
            </Title>
            <ListStates
              isLoading={info.isLoading}
              isError={info.isError}
              errorText={MSG.purchaseFetchFailed}
              onRetry={() => void info.refetch()}
              isEmpty={false}
              emptyText=""
            >
              {info.data &&
                doc.sections(info.data).map((section) => (
                  <Stack key={section.heading} gap="xs">
                    <Title order={2} size="h4">
                      {section.heading}
                    </Title>
                    {section.blocks.map((block, i) => (
                      <Block key={i} block={block} />
                    ))}
                  </Stack>
                ))}
            </ListStates>
            <Text size="sm" c="dimmed" ta="right">
              最終更新日：{LEGAL.lastUpdated}
            </Text>
          </Stack>
        </Paper>
      </Container>
      <Footer />
    </Box>
  );
}
