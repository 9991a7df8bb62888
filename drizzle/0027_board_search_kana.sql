-- Board search (docs/decisions/0007, issue 23): hiragana and katakana match each other. The search
-- text and the keyword both fold hiragana to katakana (ぁ..ゖ → ァ..ヶ, ゝゞ → ヽヾ) after NFKC and lower
-- case, so 「かふぇ」 finds 「カフェ」 and the other way round. One function keeps both sides alike
-- (the keyword goes through it too, board/search.ts). Posts whose text holds hiragana are rewritten
-- once: their search text and grams are recomputed by the triggers of migration 0018.
CREATE OR REPLACE FUNCTION board_search_normalize(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(
    lower(regexp_replace(normalize(replace(coalesce(t, ''), chr(31), ' '), NFKC), '\s+', ' ', 'g')),
    'ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞ',
    'ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶヽヾ'
  )
$$;
--> statement-breakpoint
UPDATE board_posts SET title = title WHERE search_text ~ '[ぁ-ゖゝゞ]';
