/* SPDX-License-Identifier: MIT */
/*
 * lmem.c - the Lua binding's allocator: idr.fault() and idr.mem().
 */
#include <stdatomic.h>
#include <stdbool.h>

#include "lidr.h"

/* {==================== The allocator ==================== */

/*
 * idr.fault() and idr.mem(), written on the library's allocator seam:
 * luaopen_idr() sets this allocator, which counts and fails the
 * allocations idr.fault() arms and passes the rest to the allocator it
 * replaced (the library's default: its pool of small cells and malloc).
 * Process-wide, as the seam is; atomic, as C code beside Lua may preload
 * in other threads.
 */
static struct {
	atomic_size_t bytes;
	atomic_ulong allocs, frees, failed;
	atomic_ulong fault_skip, fault_count;
	bool set; /* the library took this allocator */
	struct idr_allocator next;
} lmem;
static _Thread_local unsigned long lmem_thread_allocs;

/* Whether idr.fault() refuses this allocation. */
static bool lmem_fault_now(void)
{
	unsigned long skip, count;

	if (!atomic_load(&lmem.fault_count))
		return false;
	skip = atomic_load(&lmem.fault_skip);
	while (skip > 0)
		if (atomic_compare_exchange_weak(&lmem.fault_skip, &skip,
						 skip - 1))
			return false;
	count = atomic_load(&lmem.fault_count);
	while (count > 0)
		if (atomic_compare_exchange_weak(&lmem.fault_count, &count,
						 count - 1))
			return true;
	return false;
}

static void *lmem_malloc(size_t size, void *ctx)
{
	void *ptr;

	(void)ctx;
	if (lmem_fault_now()) {
		atomic_fetch_add(&lmem.failed, 1);
		return NULL;
	}
	ptr = lmem.next.malloc(size, lmem.next.ctx);
	if (ptr) {
		atomic_fetch_add(&lmem.bytes, size);
		atomic_fetch_add(&lmem.allocs, 1);
		lmem_thread_allocs++;
	}
	return ptr;
}

/* Only ever a shrink: neither an allocation nor failed. */
static void *lmem_realloc(void *ptr, size_t old_size, size_t new_size,
			  void *ctx)
{
	void *moved = lmem.next.realloc(ptr, old_size, new_size, lmem.next.ctx);

	(void)ctx;
	if (moved) {
		atomic_fetch_add(&lmem.bytes, new_size);
		atomic_fetch_sub(&lmem.bytes, old_size);
	}
	return moved;
}

static void lmem_free(void *ptr, size_t size, void *ctx)
{
	(void)ctx;
	atomic_fetch_sub(&lmem.bytes, size);
	atomic_fetch_add(&lmem.frees, 1);
	lmem.next.free(ptr, size, lmem.next.ctx);
}

/* Set the allocator, unless a state opened before did.  It stays unset
 * only when the library already held memory from another (a module
 * linked against a shared libidr that its host uses too). */
static void lmem_open(lua_State *L)
{
	static const struct idr_allocator counting = {
		.malloc = lmem_malloc,
		.realloc = lmem_realloc,
		.free = lmem_free,
	};
	struct idr_allocator now;

	(void)L;
	idr_get_allocator(&now);
	if (now.malloc == lmem_malloc) {
		lmem.set = true;
		return;
	}
	lmem.next = now;
	lmem.set = !idr_set_allocator(&counting);
}

static void lmem_check(lua_State *L)
{
	if (!lmem.set)
		luaL_error(L, "the library's allocator is not the module's "
			      "(it held memory when the module was loaded)");
}

/* A state's close disarms what its idr.fault() armed. */
static int lmem_close(lua_State *L)
{
	(void)L;
	atomic_store(&lmem.fault_count, 0);
	return 0;
}

int lidr_fault(lua_State *L)
{
	lua_Integer skip = lidr_opt_range(L, 1, 0, LUA_MAXINTEGER, 0);
	lua_Integer count = lidr_opt_range(L, 2, 0, LUA_MAXINTEGER, 0);

	lmem_check(L);
	atomic_store(&lmem.fault_count, 0);
	atomic_store(&lmem.fault_skip, (unsigned long)skip);
	atomic_store(&lmem.fault_count, (unsigned long)count);
	return 0;
}

int lidr_mem(lua_State *L)
{
	lmem_check(L);
	lua_createtable(L, 0, 5);
	lidr_set_int(L, "bytes", (lua_Integer)atomic_load(&lmem.bytes));
	lidr_set_int(L, "allocs", (lua_Integer)atomic_load(&lmem.allocs));
	lidr_set_int(L, "frees", (lua_Integer)atomic_load(&lmem.frees));
	lidr_set_int(L, "failed", (lua_Integer)atomic_load(&lmem.failed));
	lidr_set_int(L, "thread_allocs", (lua_Integer)lmem_thread_allocs);
	return 1;
}

/* The allocator, and its undoing when the state closes: the registry's
 * "idr.fault" holds a userdata whose __gc is lmem_close(). */
void lidr_mem_open(lua_State *L)
{
	lmem_open(L);
	lua_newuserdatauv(L, 0, 0);
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, lmem_close);
	lua_setfield(L, -2, "__gc");
	lua_setmetatable(L, -2);
	lua_setfield(L, LUA_REGISTRYINDEX, "idr.fault");
}

/* }==================== The allocator ==================== */
