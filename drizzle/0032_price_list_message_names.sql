-- One vocabulary (issue 24, decision 0032): member-to-member mail is メッセージ; メール is e-mail only.
-- The price list's displayed names and descriptions are renamed where they still read as seeded,
-- so an administrator's own wording is kept. アドレスメール (to an e-mail address) stays.
UPDATE "point_costs" SET "display_name" = '通常メッセージ送信' WHERE "action_name" = 'send_message' AND "display_name" = '通常メール送信';--> statement-breakpoint
UPDATE "point_costs" SET "display_name" = '未読メッセージ閲覧' WHERE "action_name" = 'unread_mail_view' AND "display_name" = '未読メール閲覧';--> statement-breakpoint
UPDATE "point_costs" SET "description" = '未読メッセージを開いたときに消費されます。' WHERE "action_name" = 'unread_mail_view' AND "description" = '未読メールを開いたときに消費されます。';--> statement-breakpoint
UPDATE "point_costs" SET "display_name" = '既読メッセージ閲覧' WHERE "action_name" = 'read_mail_view' AND "display_name" = '既読メール閲覧';--> statement-breakpoint
UPDATE "point_costs" SET "description" = '既読メッセージの再閲覧は無料です。' WHERE "action_name" = 'read_mail_view' AND "description" = '既読メールの再閲覧は無料です。';--> statement-breakpoint
UPDATE "point_costs" SET "display_name" = 'メッセージ添付写真閲覧' WHERE "action_name" = 'mail_attachment_photo_view' AND "display_name" = 'メール添付写真閲覧';--> statement-breakpoint
UPDATE "point_costs" SET "description" = 'メッセージに添付された写真を閲覧したときに消費されます。' WHERE "action_name" = 'mail_attachment_photo_view' AND "description" = 'メールに添付された写真を閲覧したときに消費されます。';
