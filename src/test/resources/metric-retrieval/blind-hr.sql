-- A SaaS HR platform's own database (people, hiring, leave, payroll, reviews, training, expenses): a BLIND domain
-- for find_relevant_metrics, written with its questions (golden-blind.json) before any ranking rule was changed.
-- SQLite, a few rows per table so the drafts see statuses and dates.
CREATE TABLE departments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  cost_center TEXT NOT NULL
);
CREATE TABLE employees (
  id INTEGER PRIMARY KEY,
  department_id INTEGER NOT NULL REFERENCES departments(id),
  manager_id INTEGER REFERENCES employees(id),
  full_name TEXT NOT NULL,
  work_email TEXT NOT NULL,
  job_title TEXT NOT NULL,
  employment_type TEXT NOT NULL CHECK (employment_type IN ('full_time', 'part_time', 'contractor')),
  status TEXT NOT NULL CHECK (status IN ('active', 'on_leave', 'terminated')),
  hired_on DATE NOT NULL,
  terminated_on DATE,
  annual_salary_cents INTEGER NOT NULL
);
CREATE TABLE job_openings (
  id INTEGER PRIMARY KEY,
  department_id INTEGER NOT NULL REFERENCES departments(id),
  title TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'filled', 'closed')),
  opened_on DATE NOT NULL,
  headcount INTEGER NOT NULL
);
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('referral', 'job_board', 'agency', 'careers_site')),
  created_at TIMESTAMP NOT NULL
);
CREATE TABLE applications (
  id INTEGER PRIMARY KEY,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  job_opening_id INTEGER NOT NULL REFERENCES job_openings(id),
  stage TEXT NOT NULL CHECK (stage IN ('applied', 'screening', 'interview', 'offer', 'hired', 'rejected')),
  applied_at TIMESTAMP NOT NULL
);
CREATE TABLE interviews (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications(id),
  interviewer_id INTEGER NOT NULL REFERENCES employees(id),
  scheduled_at TIMESTAMP NOT NULL,
  duration_minutes INTEGER NOT NULL,
  score INTEGER CHECK (score BETWEEN 1 AND 5)
);
CREATE TABLE offers (
  id INTEGER PRIMARY KEY,
  application_id INTEGER NOT NULL REFERENCES applications(id),
  status TEXT NOT NULL CHECK (status IN ('extended', 'accepted', 'declined')),
  base_salary_cents INTEGER NOT NULL,
  signing_bonus_cents INTEGER NOT NULL,
  extended_at TIMESTAMP NOT NULL
);
CREATE TABLE leave_requests (
  id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL REFERENCES employees(id),
  leave_type TEXT NOT NULL CHECK (leave_type IN ('vacation', 'sick', 'parental', 'unpaid')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  starts_on DATE NOT NULL,
  days INTEGER NOT NULL,
  requested_at TIMESTAMP NOT NULL
);
CREATE TABLE payslips (
  id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL REFERENCES employees(id),
  period_end DATE NOT NULL,
  gross_pay_cents INTEGER NOT NULL,
  tax_withheld_cents INTEGER NOT NULL,
  net_pay_cents INTEGER NOT NULL,
  overtime_hours INTEGER NOT NULL
);
CREATE TABLE performance_reviews (
  id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL REFERENCES employees(id),
  reviewer_id INTEGER NOT NULL REFERENCES employees(id),
  cycle TEXT NOT NULL,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  submitted_at TIMESTAMP NOT NULL
);
CREATE TABLE training_enrollments (
  id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL REFERENCES employees(id),
  course_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('enrolled', 'completed', 'dropped')),
  enrolled_at TIMESTAMP NOT NULL,
  cost_cents INTEGER NOT NULL
);
CREATE TABLE expense_claims (
  id INTEGER PRIMARY KEY,
  employee_id INTEGER NOT NULL REFERENCES employees(id),
  category TEXT NOT NULL CHECK (category IN ('travel', 'meals', 'equipment', 'software')),
  status TEXT NOT NULL CHECK (status IN ('submitted', 'approved', 'reimbursed', 'rejected')),
  amount_cents INTEGER NOT NULL,
  submitted_at TIMESTAMP NOT NULL
);
INSERT INTO departments VALUES (1, 'Engineering', 'CC-100'), (2, 'Sales', 'CC-200'), (3, 'People', 'CC-300');
INSERT INTO employees VALUES
  (1, 1, NULL, 'Ada Moreno', 'ada@hr.example', 'VP Engineering', 'full_time', 'active', '2019-02-01', NULL, 21000000),
  (2, 1, 1, 'Bo Lindqvist', 'bo@hr.example', 'Engineer', 'full_time', 'active', '2021-05-10', NULL, 12000000),
  (3, 2, NULL, 'Cy Oduya', 'cy@hr.example', 'Account Executive', 'full_time', 'on_leave', '2020-09-14', NULL, 9000000),
  (4, 2, 3, 'Di Park', 'di@hr.example', 'Sales Development Rep', 'part_time', 'terminated', '2022-01-03', '2023-04-30', 5000000),
  (5, 3, NULL, 'Ed Novak', 'ed@hr.example', 'Recruiter', 'contractor', 'active', '2023-03-01', NULL, 7000000);
INSERT INTO job_openings VALUES (1, 1, 'Senior Engineer', 'open', '2023-04-01', 2), (2, 2, 'Account Executive', 'filled', '2023-02-01', 1),
  (3, 3, 'HR Business Partner', 'closed', '2023-01-15', 1);
INSERT INTO candidates VALUES (1, 'Fay Gill', 'fay@mail.example', 'referral', '2023-04-03 09:00:00'),
  (2, 'Gus Hahn', 'gus@mail.example', 'job_board', '2023-04-05 10:00:00'),
  (3, 'Hal Ito', 'hal@mail.example', 'agency', '2023-02-10 11:00:00'),
  (4, 'Ivy Jones', 'ivy@mail.example', 'careers_site', '2023-02-12 12:00:00');
INSERT INTO applications VALUES (1, 1, 1, 'interview', '2023-04-03 09:05:00'), (2, 2, 1, 'rejected', '2023-04-05 10:05:00'),
  (3, 3, 2, 'hired', '2023-02-10 11:05:00'), (4, 4, 2, 'offer', '2023-02-12 12:05:00');
INSERT INTO interviews VALUES (1, 1, 2, '2023-04-10 14:00:00', 60, 4), (2, 3, 3, '2023-02-15 15:00:00', 45, 5),
  (3, 4, 3, '2023-02-16 15:00:00', 45, 3), (4, 2, 1, '2023-04-11 09:00:00', 30, 2);
INSERT INTO offers VALUES (1, 3, 'accepted', 9500000, 500000, '2023-02-20 10:00:00'), (2, 4, 'declined', 9000000, 0, '2023-02-21 10:00:00');
INSERT INTO leave_requests VALUES (1, 2, 'vacation', 'approved', '2023-07-03', 5, '2023-05-01 08:00:00'),
  (2, 3, 'parental', 'approved', '2023-05-01', 60, '2023-03-01 08:00:00'),
  (3, 1, 'sick', 'approved', '2023-05-15', 2, '2023-05-15 07:00:00'),
  (4, 5, 'vacation', 'pending', '2023-08-01', 10, '2023-06-01 08:00:00');
INSERT INTO payslips VALUES (1, 1, '2023-05-31', 1750000, 520000, 1230000, 0), (2, 2, '2023-05-31', 1000000, 280000, 720000, 6),
  (3, 3, '2023-05-31', 750000, 190000, 560000, 0), (4, 5, '2023-05-31', 583000, 0, 583000, 12);
INSERT INTO performance_reviews VALUES (1, 2, 1, '2023-H1', 4, '2023-06-30 17:00:00'), (2, 3, 1, '2023-H1', 3, '2023-06-29 17:00:00'),
  (3, 5, 1, '2023-H1', 5, '2023-06-28 17:00:00');
INSERT INTO training_enrollments VALUES (1, 2, 'Secure Coding', 'completed', '2023-03-01 09:00:00', 45000),
  (2, 3, 'Negotiation', 'enrolled', '2023-05-01 09:00:00', 80000), (3, 5, 'Interviewing Well', 'dropped', '2023-04-01 09:00:00', 30000);
INSERT INTO expense_claims VALUES (1, 2, 'travel', 'reimbursed', 84000, '2023-05-05 18:00:00'),
  (2, 3, 'meals', 'approved', 6500, '2023-05-06 19:00:00'), (3, 1, 'equipment', 'submitted', 129900, '2023-05-20 10:00:00'),
  (4, 5, 'software', 'rejected', 2000, '2023-05-21 11:00:00');
