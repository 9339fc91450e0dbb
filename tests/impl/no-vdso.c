// SPDX-License-Identifier: MIT
/* A library that exports none of the vDSO's functions: --impl finds nothing in it. */
int not_a_vdso_function(void);

int not_a_vdso_function(void)
{
	return 0;
}
