/*
 * rcu-readers.c - a table of sessions, read on every request without a
 * lock: an RCU idr (<idr_rcu.h>, liburcu's default flavour).
 *
 *	cc -std=c11 -pthread rcu-readers.c \
 *		$(pkg-config --cflags --libs idr-rcu)
 *
 * Two reader threads look sessions up inside rcu_read_lock() while the
 * writer (one at a time: the table's mutex) opens sessions, closes half
 * of them and renews the rest.  What the rules ask (see idr(3)):
 *   - every thread registers with liburcu, the writer too;
 *   - a closed session is freed with call_rcu(), after every reader that
 *     may hold it has left its read-side section;
 *   - at the end: idr_destroy(), synchronize_rcu(), rcu_barrier().
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <urcu.h>

#include <idr_rcu.h>

struct session {
	int id;
	int generation;
	struct rcu_head rcu;
};

static DEFINE_IDR_RCU(sessions);
static pthread_mutex_t sessions_lock = PTHREAD_MUTEX_INITIALIZER;
static int done;
static unsigned long wrong; /* sessions found at another ID: none */

static void session_free(struct rcu_head *head)
{
	free(caa_container_of(head, struct session, rcu));
}

static struct session *session_new(int generation)
{
	struct session *s = malloc(sizeof(*s));

	if (!s)
		abort();
	s->id = -1;
	s->generation = generation;
	return s;
}

/* Open a session: reserve its ID, fill it in, then publish it. */
static int session_open(void)
{
	struct session *s = session_new(0);
	int id;

	pthread_mutex_lock(&sessions_lock);
	id = idr_alloc(&sessions, NULL, 1, 0, GFP_KERNEL);
	if (id > 0) {
		s->id = id;
		idr_replace(&sessions, s, (unsigned long)id);
	}
	pthread_mutex_unlock(&sessions_lock);
	if (id < 0)
		free(s);
	return id;
}

static void session_close(int id)
{
	struct session *s;

	pthread_mutex_lock(&sessions_lock);
	s = idr_remove(&sessions, (unsigned long)id);
	pthread_mutex_unlock(&sessions_lock);
	if (s)
		call_rcu(&s->rcu, session_free);
}

/* Put a new session object in an open session's place. */
static void session_renew(int id, int generation)
{
	struct session *s = session_new(generation), *old;

	s->id = id;
	pthread_mutex_lock(&sessions_lock);
	old = idr_replace(&sessions, s, (unsigned long)id);
	pthread_mutex_unlock(&sessions_lock);
	if (IS_ERR(old))
		free(s);
	else
		call_rcu(&old->rcu, session_free);
}

static void *reader(void *arg)
{
	unsigned int id = (unsigned int)(unsigned long)arg;

	rcu_register_thread();
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		struct session *s;

		id = id % 2000 + 1;
		rcu_read_lock();
		s = idr_find(&sessions, id);
		if (s && s->id != (int)id)
			__atomic_fetch_add(&wrong, 1, __ATOMIC_RELAXED);
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t readers[2];
	unsigned long n = 0;
	struct session *s;
	int i, id;

	rcu_register_thread();
	for (i = 0; i < 2; i++)
		pthread_create(&readers[i], NULL, reader,
			       (void *)(unsigned long)(i * 1000));
	for (i = 0; i < 2000; i++)
		session_open();
	for (id = 1; id <= 2000; id += 2)
		session_close(id);
	for (id = 2; id <= 2000; id += 2)
		session_renew(id, 1);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < 2; i++)
		pthread_join(readers[i], NULL);

	rcu_read_lock();
	idr_for_each_entry(&sessions, s, id)
		n += s->generation == 1;
	rcu_read_unlock();
	printf("%lu sessions open, all renewed: %s\n", idr_count(&sessions),
	       n == idr_count(&sessions) ? "yes" : "no");
	printf("sessions found at another ID: %lu\n", wrong);

	/* The end: free every session after the readers, then the tree. */
	idr_for_each_entry(&sessions, s, id) {
		idr_remove(&sessions, (unsigned long)id);
		call_rcu(&s->rcu, session_free);
	}
	idr_destroy(&sessions);
	synchronize_rcu();
	rcu_barrier();
	rcu_unregister_thread();
	return 0;
}
