/*
 * The seqcount primitives as include/linux/seqlock.h defines them (v6.x,
 * without lockdep and KCSAN), written over the kernel's READ_ONCE,
 * smp_rmb and smp_wmb. Their loops are the reader's spin while the count
 * is odd and, in the caller, the retry loop: both have failed iterations
 * that only read, so the axiomatic models check them as awaits
 * (docs/language.md, "Loops as awaits").
 *
 * seqcount_t is one location here (the kernel's struct seqcount holds
 * only the unsigned sequence, plus lockdep's map).
 */

/* __read_seqcount_begin(): spin while a write is in progress (odd). */
static inline unsigned read_seqcount_begin(seqcount_t *s)
{
	unsigned seq;

	do {
		seq = READ_ONCE(*s);	/* while ((seq = READ_ONCE(s->sequence)) & 1) cpu_relax(); */
	} while (seq & 1);
	smp_rmb();
	return seq;
}

/* read_seqcount_retry(): smp_rmb(), then whether the count moved. */
static inline int read_seqcount_retry(seqcount_t *s, unsigned start)
{
	smp_rmb();
	return READ_ONCE(*s) != start;
}

/*
 * write_seqcount_begin()/end(): the kernel writes s->sequence++ under
 * the writer's lock, and KCSAN excuses the plain access
 * (kcsan_nestable_atomic_begin()); the LKMM has no such excuse and would
 * flag the readers' READ_ONCE as racing with it, so the increment is a
 * marked one here. The ordering is the kernel's: smp_wmb() after the
 * first increment and before the second.
 */
static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(*s, READ_ONCE(*s) + 1);
	smp_wmb();
}

static inline void write_seqcount_end(seqcount_t *s)
{
	smp_wmb();
	WRITE_ONCE(*s, READ_ONCE(*s) + 1);
}
