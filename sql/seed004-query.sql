select count(*) from pgbench_accounts where bid = 0;
