-- A chain of outpatient clinics (a domain the repository has nowhere else), for the find_relevant_metrics golden
-- set: SQLite, a few rows per table so the drafts see statuses and dates.
CREATE TABLE clinics (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  opened_on DATE NOT NULL
);
CREATE TABLE practitioners (
  id INTEGER PRIMARY KEY,
  clinic_id INTEGER NOT NULL REFERENCES clinics(id),
  full_name TEXT NOT NULL,
  specialty TEXT NOT NULL CHECK (specialty IN ('general_practice', 'paediatrics', 'dermatology', 'physiotherapy')),
  hired_on DATE NOT NULL
);
CREATE TABLE patients (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birth_date DATE NOT NULL,
  email TEXT,
  registered_at TIMESTAMP NOT NULL
);
CREATE TABLE appointments (
  id INTEGER PRIMARY KEY,
  patient_id INTEGER NOT NULL REFERENCES patients(id),
  practitioner_id INTEGER NOT NULL REFERENCES practitioners(id),
  clinic_id INTEGER NOT NULL REFERENCES clinics(id),
  scheduled_at TIMESTAMP NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('booked', 'completed', 'cancelled', 'no_show')),
  booked_via TEXT NOT NULL CHECK (booked_via IN ('phone', 'online', 'walk_in')),
  duration_minutes INTEGER NOT NULL,
  wait_minutes INTEGER
);
CREATE TABLE bills (
  id INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL REFERENCES appointments(id),
  issued_at TIMESTAMP NOT NULL,
  amount_cents INTEGER NOT NULL,
  insurance_covered_cents INTEGER NOT NULL,
  paid_at TIMESTAMP
);
CREATE TABLE prescriptions (
  id INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL REFERENCES appointments(id),
  drug_name TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  prescribed_at TIMESTAMP NOT NULL
);
CREATE TABLE feedback (
  id INTEGER PRIMARY KEY,
  appointment_id INTEGER NOT NULL REFERENCES appointments(id),
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  comment TEXT,
  submitted_at TIMESTAMP NOT NULL
);
INSERT INTO clinics VALUES (1, 'Harbour Clinic', 'Leith', '2019-03-01'), (2, 'Meadow Health', 'Morningside', '2021-06-15');
INSERT INTO practitioners VALUES (1, 1, 'Dr Ana Ruiz', 'general_practice', '2019-03-01'), (2, 1, 'Dr Sam Okoye', 'dermatology', '2020-01-10'),
  (3, 2, 'Dr Lin Wei', 'paediatrics', '2021-06-15'), (4, 2, 'Kai Berg', 'physiotherapy', '2022-02-01');
INSERT INTO patients VALUES (1, 'Iona', 'Grant', '1984-05-02', 'iona@example.org', '2023-01-04 09:00:00'),
  (2, 'Ravi', 'Patel', '1990-11-23', 'ravi@example.org', '2023-02-11 10:30:00'),
  (3, 'Mia', 'Novak', '2015-07-30', NULL, '2023-03-19 14:00:00'),
  (4, 'Tom', 'Fraser', '1958-01-12', 'tom@example.org', '2023-04-02 08:15:00');
INSERT INTO appointments VALUES (1, 1, 1, 1, '2023-05-02 09:00:00', 'completed', 'online', 15, 5),
  (2, 2, 2, 1, '2023-05-03 11:00:00', 'completed', 'phone', 30, 12),
  (3, 3, 3, 2, '2023-05-04 15:00:00', 'no_show', 'online', 20, NULL),
  (4, 4, 4, 2, '2023-05-05 10:00:00', 'cancelled', 'phone', 45, NULL),
  (5, 1, 1, 1, '2023-06-01 09:30:00', 'completed', 'walk_in', 15, 25),
  (6, 2, 2, 1, '2023-07-01 16:00:00', 'booked', 'online', 30, NULL);
INSERT INTO bills VALUES (1, 1, '2023-05-02 10:00:00', 6500, 5000, '2023-05-10 00:00:00'),
  (2, 2, '2023-05-03 12:00:00', 12000, 0, NULL),
  (3, 5, '2023-06-01 10:00:00', 6500, 6500, '2023-06-02 00:00:00');
INSERT INTO prescriptions VALUES (1, 1, 'amoxicillin', 21, '2023-05-02 09:20:00'), (2, 2, 'hydrocortisone cream', 1, '2023-05-03 11:40:00'),
  (3, 5, 'ibuprofen', 30, '2023-06-01 09:50:00');
INSERT INTO feedback VALUES (1, 1, 5, 'Quick and kind', '2023-05-03 08:00:00'), (2, 2, 3, 'Long wait', '2023-05-04 08:00:00'),
  (3, 5, 4, NULL, '2023-06-02 08:00:00');
