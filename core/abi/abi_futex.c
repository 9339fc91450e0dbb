// SPDX-License-Identifier: MIT
/*
 * abi's cases of Linux 7.3's robust futex unlocks, which have no syscall
 * twin to compare with: each outcome is held to the contract of the
 * kernel's include/vdso/futex.h, as its futex selftest (robust_list's
 * vdso_unlock) checks it. f(lock, tid, pop) returns what *lock held and,
 * only where that was tid, sets *lock to 0 and then *pop to NULL:
 *   uncontended   *lock == tid: returns tid, *lock 0, *pop NULL
 *   contended     FUTEX_WAITERS set, or another owner: returns *lock,
 *                 writes neither
 *   a bad lock    a fault (SIGSEGV or SIGBUS), never a return
 *   a bad pop     while contended: never touched, so a return
 * The 32-bit entry's pop is a u32 (a compat task's pointer), the 64-bit
 * entry's a u64; canaries on both sides of it catch a wider store.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/base/isolate.h"
#include "core/abi/abi.h"

#define FUTEX_WAITERS 0x80000000u
#define CANARY 0x5a5a5a5au

typedef uint32_t (*unlock_fn)(uint32_t *lock, uint32_t tid, void *pop);

/*
 * The pending-op pointer in words, canaries around it: two before and, as
 * the entry's pointer is 64 or 32 bits, two or three after, so that a
 * 32-bit entry's 64-bit store shows.
 */
#define POP_AT 2
#define POP_WORDS 6

struct pop_slot {
	_Alignas(8) uint32_t w[POP_WORDS];
};

struct fcase {
	const char *name;	/* the result's check: "uncontended", "lock:NULL" */
	uint32_t lock_xor;	/* what the lock holds: tid ^ this (0: tid) */
	uint32_t lock_or;	/* | this (FUTEX_WAITERS) */
	enum vk_ptr lock_ptr, pop_ptr;
};

static const struct fcase cases[] = {
	{ "uncontended", 0, 0, VK_PTR_VALID, VK_PTR_VALID },
	{ "contended", 0, FUTEX_WAITERS, VK_PTR_VALID, VK_PTR_VALID },
	{ "other-owner", 1, 0, VK_PTR_VALID, VK_PTR_VALID },
	{ "lock:NULL", 0, 0, VK_PTR_NULL, VK_PTR_VALID },
	{ "lock:unmapped", 0, 0, VK_PTR_UNMAPPED, VK_PTR_VALID },
	{ "lock:PROT_NONE", 0, 0, VK_PTR_PROT_NONE, VK_PTR_VALID },
	{ "lock:kernel-half", 0, 0, VK_PTR_KERNEL, VK_PTR_VALID },
	{ "lock:UINTPTR_MAX", 0, 0, VK_PTR_MAX, VK_PTR_VALID },
	{ "contended,pop:NULL", 0, FUTEX_WAITERS, VK_PTR_VALID, VK_PTR_NULL },
	{ "contended,pop:unmapped", 0, FUTEX_WAITERS, VK_PTR_VALID, VK_PTR_UNMAPPED },
	{ "contended,pop:read-only", 0, FUTEX_WAITERS, VK_PTR_VALID, VK_PTR_READONLY },
};

/* What one case did, written by the child. */
struct answer {
	uint32_t ret, lock, tid;
	struct pop_slot pop;
};

struct job {
	const struct vk_callset *cs;
	enum vk_path p;
	enum vk_func f;
	const struct fcase *c;
};

/* Canaries, and a pending op that is not NULL (its 32-bit low half for
 * the 32-bit entry); where the unlock succeeded, that op NULL. */
static void pop_set(struct pop_slot *s, int is32, int cleared)
{
	for (int i = 0; i < POP_WORDS; i++)
		s->w[i] = CANARY;
	s->w[POP_AT] = cleared ? 0 : 0x12345678u;
	if (!is32)
		s->w[POP_AT + 1] = cleared ? 0 : 0x9abcdef0u;
}

static void child(void *ctx, int fd)
{
	struct vk_callset loaded;
	const struct job *j = ctx;
	const struct vk_callset *cs = vk_callset_child(j->cs, VK_PATH_BIT(j->p), &loaded);
	unlock_fn fn = (unlock_fn)cs->fn[j->p][j->f].p;
	struct answer a = { .tid = (uint32_t)gettid() };
	uint32_t word = (a.tid ^ j->c->lock_xor) | j->c->lock_or;
	uint32_t *lock = j->c->lock_ptr == VK_PTR_VALID ? &word : vk_abi_ptr(j->c->lock_ptr);
	void *pop = j->c->pop_ptr == VK_PTR_VALID ? (void *)&a.pop.w[POP_AT] :
						      vk_abi_ptr(j->c->pop_ptr);

	pop_set(&a.pop, j->f == VK_FN_FUTEX_UNLOCK32, 0);
	a.ret = fn(lock, a.tid, pop);
	a.lock = word;
	vk_write_all(fd, &a, sizeof(a));
	_exit(0);
}

/* Whether the child's answer keeps the contract; why not in buf. */
static int kept(const struct job *j, const struct answer *a, char *buf, size_t len)
{
	int is32 = j->f == VK_FN_FUTEX_UNLOCK32;
	uint32_t was = (a->tid ^ j->c->lock_xor) | j->c->lock_or;
	int owner = was == a->tid, given = j->c->pop_ptr == VK_PTR_VALID;
	struct pop_slot want;

	pop_set(&want, is32, owner && given);
	if (a->ret != was)
		snprintf(buf, len, "returned %#x where the lock held %#x", a->ret, was);
	else if (a->lock != (owner ? 0 : was))
		snprintf(buf, len, "left the lock %#x where it held %#x (%s)", a->lock, was,
			 owner ? "the caller's tid: it must become 0" : "not the caller's: untouched");
	else if (!memcmp(&a->pop, &want, sizeof(want)))
		return 1;
	else if (a->pop.w[POP_AT] != want.w[POP_AT] ||
		 (!is32 && a->pop.w[POP_AT + 1] != want.w[POP_AT + 1]))
		snprintf(buf, len, "left list_op_pending %s where %s",
			 a->pop.w[POP_AT] || (!is32 && a->pop.w[POP_AT + 1]) ? "set" : "NULL",
			 owner ? "the unlock must clear it" : "it must stay untouched");
	else
		snprintf(buf, len, "wrote beside list_op_pending (a %d-bit pointer)", is32 ? 32 : 64);
	return 0;
}

/* A case that returned: held to the contract. */
static void judge(struct vk_abi *a, struct vk_result *r, const struct job *j,
		  const unsigned char *data)
{
	struct answer ans;
	char why[160];

	memcpy(&ans, data, sizeof(ans));
	if (!kept(j, &ans, why, sizeof(why)))
		vk_result_fail(a->rs, r, "unexpected: %s %s", vk_path_name(j->p), why);
	else
		snprintf(r->detail, sizeof(r->detail),
			 "allowed (futex-contract): %s returned %#x; lock %#x, list_op_pending %s",
			 vk_path_name(j->p), ans.ret, ans.lock,
			 j->c->pop_ptr != VK_PTR_VALID ? "not given" :
			 ans.pop.w[POP_AT] ? "kept" : "NULL");
}

static void run_case(struct vk_abi *a, const struct job *j, const char *api)
{
	struct vk_result *r = vk_results_add(a->rs, api, j->p, j->c->name);
	const char *lib = j->p == VK_PATH_IMPL ? a->cs->impl_path : NULL;
	int bad_lock = j->c->lock_ptr != VK_PTR_VALID;
	struct vk_isolated out;
	char why[160], how[64];

	if (vk_isolate(child, (void *)j, a->timeout, &out)) {
		vk_isolate_not_tested(&out, why, sizeof(why));
		vk_result_error(a->rs, r, "%s", why);
		return;
	}
	r->calls = 1;
	vk_isolated_describe(&out, a->timeout, how, sizeof(how));
	if (bad_lock && (out.signal == SIGSEGV || out.signal == SIGBUS))
		snprintf(r->detail, sizeof(r->detail), "allowed (futex-contract): %s %s",
			 vk_path_name(j->p), how);
	else if (bad_lock && out.len == sizeof(struct answer))
		vk_result_fail(a->rs, r, "unexpected: %s returned where its lock pointer cannot be read",
			       vk_path_name(j->p));
	else if (out.len != sizeof(struct answer) || !out.exited || out.exit_status)
		vk_result_fail(a->rs, r, "unexpected: %s%s%s%s %s", vk_path_name(j->p),
			       lib ? " (" : "", lib ? lib : "", lib ? ")" : "", how);
	else
		judge(a, r, j, out.data);
	vk_isolated_free(&out);
}

void vk_abi_futex(struct vk_abi *a, enum vk_func f)
{
	const char *api = NULL;

	for (const struct vk_api *row = vk_apis; row < vk_apis + vk_nlisted; row++)
		api = row->func == f ? row->name : api;
	for (int p = 0; p < VK_NPATHS; p++) {
		if (p == VK_PATH_SYSCALL || !(a->paths & VK_PATH_BIT(p)))
			continue;
		if (!vk_callset_has(a->cs, p, f)) {
			vk_result_skip(vk_results_add(a->rs, api, p, "all"), "%s", a->cs->why[p][f]);
			continue;
		}
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const struct job j = { a->cs, p, f, &cases[i] };

			run_case(a, &j, api);
		}
	}
}
