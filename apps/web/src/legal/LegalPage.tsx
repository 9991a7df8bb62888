import { LEGAL } from "@enmusubi/shared";
import { Anchor, Box, Container, List, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { Link } from "react-router-dom";
import { Footer } from "../layout/Footer";
import classes from "../public/public.module.css";
import type { LegalBlock, LegalDocument } from "./texts";

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
  return (
    <Table withTableBorder withColumnBorders fz="sm" layout="fixed">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{block.head[0]}</Table.Th>
          <Table.Th>{block.head[1]}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {block.rows.map(([a, b]) => (
          <Table.Tr key={a}>
            <Table.Td>{a}</Table.Td>
            <Table.Td>{b}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A legal page, open to everyone (spec §2 Public). */
export function LegalPage({ document: doc }: { document: LegalDocument }) {
  useEffect(() => {
    window.document.title = `${doc.title} | 縁結び`;
  }, [doc.title]);
  return (
    <Box className={classes.page}>
      <Container component="main" size={820} className={classes.container} pb="xl">
        <Paper withBorder p={{ base: "md", sm: "xl" }}>
          <Stack gap="lg">
            <Anchor component={Link} to="/login" size="sm">
              ← ログイン画面へ
            </Anchor>
            <Title order={1} size="h2">
              {doc.title}
            </Title>
            {doc.sections.map((section) => (
              <Stack key={section.heading} gap="xs">
                <Title order={2} size="h4">
                  {section.heading}
                </Title>
                {section.blocks.map((block, i) => (
                  <Block key={i} block={block} />
                ))}
              </Stack>
            ))}
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
