-- A veterinary clinic (owners, pets, visits) with yes/no columns of every kind: booleans NOT NULL and nullable, a
-- smallint 0/1 flag, a test flag. Written for the yes/no segment rules and not used to write them. PostgreSQL.
CREATE SCHEMA clinic;
CREATE TYPE clinic.species AS ENUM ('dog', 'cat', 'rabbit', 'bird');
CREATE TYPE clinic.visit_kind AS ENUM ('checkup', 'vaccination', 'surgery', 'emergency');
CREATE TABLE clinic.owners (owner_id int PRIMARY KEY, email text, full_name text, is_test boolean NOT NULL);
CREATE TABLE clinic.pets (pet_id int PRIMARY KEY, owner_id int NOT NULL REFERENCES clinic.owners,
    species clinic.species NOT NULL, neutered boolean NOT NULL, insured boolean);
CREATE TABLE clinic.visits (visit_id int PRIMARY KEY, pet_id int NOT NULL REFERENCES clinic.pets,
    kind clinic.visit_kind NOT NULL, is_emergency boolean NOT NULL, no_show boolean NOT NULL,
    reminder_sent smallint NOT NULL, fee_cents int NOT NULL, visited_at timestamp NOT NULL, cancelled_at timestamp);
INSERT INTO clinic.owners SELECT g, 'o' || g || '@example.org', 'Owner ' || g, g % 13 = 0 FROM generate_series(1, 40) g;
INSERT INTO clinic.pets SELECT g, 1 + g % 40, (ARRAY['dog','cat','rabbit','bird'])[1 + g % 4]::clinic.species,
    g % 3 = 0, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 2 = 0 END FROM generate_series(1, 90) g;
INSERT INTO clinic.visits SELECT g, 1 + g % 90, (ARRAY['checkup','vaccination','surgery','emergency'])[1 + g % 4]::clinic.visit_kind,
    g % 4 = 3, g % 11 = 0, g % 2, 500 * (1 + g % 6), timestamp '2026-01-01' + g * interval '6 hours',
    CASE WHEN g % 9 = 0 THEN timestamp '2026-03-01' END FROM generate_series(1, 400) g;
