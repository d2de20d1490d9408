SELECT count(*) FROM loans WHERE status = 'overdue'
SELECT member_id, sum(fine_cents) FROM loans WHERE status = 'overdue' GROUP BY member_id
SELECT l.loan_id FROM loans l JOIN items i ON i.item_id = l.item_id WHERE l.status = 'overdue' AND i.format = 'dvd'
SELECT count(*) FROM loans WHERE returned_at IS NULL
SELECT item_id FROM loans WHERE returned_at IS NULL AND loaned_at < '2026-01-01'
SELECT count(*) FROM items WHERE format = 'ebook'
SELECT title FROM items WHERE format = 'ebook' ORDER BY title
SELECT count(*) FROM items WHERE title = 'Dune'
SELECT item_id FROM items WHERE title = 'Dune'
SELECT count(*) FROM members WHERE tier IN ('premium', 'student')
SELECT avg(fine_cents) FROM loans l JOIN members m ON m.member_id = l.member_id WHERE m.tier IN ('premium', 'student')
SELECT member_id FROM members WHERE email = 'm7@example.org'
SELECT full_name FROM members WHERE email = 'm7@example.org' AND closed_at IS NULL
SELECT count(*) FROM members WHERE closed_at IS NULL
SELECT count(*) FROM loans WHERE status = 'lost'
SELECT * FROM loans WHERE member_id = 42
SELECT * FROM loans WHERE member_id = 43 AND status = 'returned'
