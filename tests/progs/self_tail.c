/*
 * A function that calls itself by a tail call: gcc -O2 ends split() with
 * its epilogue and a jump back to its own entry (a sibling call; its
 * recursion is not made a loop), as it does sqlite's sqlite3WhereSplit().
 * Each such jump is a call: a -pg build's hook runs again, and gdb's
 * breakpoint at the entry is hit again.  The tree is 4 levels of AND
 * nodes over 16 leaves: split() runs 31 times, insert() 16.
 */
#include <stdio.h>

typedef unsigned char u8;

struct node {
	u8 op;
	unsigned flags;
	struct node *left, *right;
};

struct clause {
	int n;
	u8 op;
	struct node *terms[64];
};

static struct node pool[64];
static int used;

__attribute__((noinline)) static void insert(struct clause *c, struct node *n)
{
	c->terms[c->n++] = n;
}

/* Steps over wrapper nodes, as sqlite3ExprSkipCollateAndLikely() does. */
static struct node *unwrap(struct node *n)
{
	while (n && (n->flags & 3))
		n = n->flags & 1 ? n->left : n->right;
	return n;
}

__attribute__((noinline)) void split(struct clause *c, struct node *e, u8 op)
{
	struct node *n = unwrap(e);

	c->op = op;
	if (!n)
		return;
	if (n->op != op) {
		insert(c, e);
	} else {
		split(c, n->left, op);
		split(c, n->right, op);
	}
}

static struct node *build(int depth)
{
	struct node *n = &pool[used++];

	n->op = depth ? 1 : 2;
	n->left = depth ? build(depth - 1) : NULL;
	n->right = depth ? build(depth - 1) : NULL;
	return n;
}

int main(void)
{
	struct clause c = { 0 };

	split(&c, build(4), 1);
	printf("%d terms\n", c.n);
	return 0;
}
