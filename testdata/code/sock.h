/*
 * The parts of the kernel's socket structures the seed tests touch
 * (include/net/sock.h, include/linux/net.h, include/linux/tcp.h),
 * trimmed to the members the patches' functions use. Included by the
 * code tests beside it.
 */
#define SOCK_NOSPACE	2
#define SOCK_RCVTSTAMP	3
#define SOCK_TIMESTAMPING_ANY 4

struct wait_queue_head {
	int head;		/* the waiters: non-zero when one is queued */
};

struct socket_wq {
	struct wait_queue_head wait;
};

struct socket {
	unsigned long flags;
	struct socket_wq wq;
};

struct sock {
	spinlock_t sk_lock;
	struct socket *sk_socket;
	struct socket_wq *sk_wq;
	refcount_t sk_wmem_alloc;
	int sk_sndbuf;
	unsigned long sk_flags;
	u32 sk_tsflags;
	void (*sk_write_space)(struct sock *sk);
};

struct inet_sock {
	struct sock sk;
};

struct inet_connection_sock {
	struct inet_sock icsk_inet;
};

struct tcp_sock {
	struct inet_connection_sock inet_conn;
	u32 snd_wnd;
	u8 tcp_nospace;
};

static inline struct tcp_sock *tcp_sk(const struct sock *sk)
{
	return container_of(sk, struct tcp_sock, inet_conn.icsk_inet.sk);
}

/* include/linux/wait.h */
static inline int waitqueue_active(struct wait_queue_head *wq_head)
{
	return READ_ONCE(wq_head->head) != 0;
}
