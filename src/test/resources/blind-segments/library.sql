-- A public library (members, items, loans): a domain written for the observed-segment rules and not used to
-- write them. PostgreSQL; the test loads it into a database of its own.
CREATE SCHEMA library;
CREATE TYPE library.member_tier AS ENUM ('basic', 'premium', 'student');
CREATE TYPE library.item_format AS ENUM ('book', 'dvd', 'ebook', 'audiobook');
CREATE TYPE library.loan_status AS ENUM ('on_loan', 'returned', 'overdue', 'lost');
CREATE TABLE library.members (member_id int PRIMARY KEY, email text, full_name text, tier library.member_tier NOT NULL,
    joined_at date NOT NULL, closed_at timestamp);
CREATE TABLE library.items (item_id int PRIMARY KEY, title text NOT NULL, format library.item_format NOT NULL, shelf text);
CREATE TABLE library.loans (loan_id int PRIMARY KEY, member_id int NOT NULL REFERENCES library.members,
    item_id int NOT NULL REFERENCES library.items, status library.loan_status NOT NULL, fine_cents int NOT NULL,
    loaned_at timestamp NOT NULL, returned_at timestamp);
INSERT INTO library.members SELECT g, 'm' || g || '@example.org', 'Member ' || g,
    (ARRAY['basic','premium','student'])[1 + g % 3]::library.member_tier, date '2020-01-01' + g,
    CASE WHEN g % 5 = 0 THEN timestamp '2026-01-01' END FROM generate_series(1, 40) g;
INSERT INTO library.items SELECT g, 'Title ' || g, (ARRAY['book','dvd','ebook','audiobook'])[1 + g % 4]::library.item_format,
    'S' || (g % 9) FROM generate_series(1, 80) g;
INSERT INTO library.loans SELECT g, 1 + g % 40, 1 + g % 80,
    (ARRAY['on_loan','returned','overdue','lost','returned'])[1 + g % 5]::library.loan_status, (g % 7) * 50,
    timestamp '2026-01-01' + g * interval '1 day', CASE WHEN g % 5 IN (1, 4) THEN timestamp '2026-06-01' END
    FROM generate_series(1, 300) g;
