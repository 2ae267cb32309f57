# hotloops asm snapshot of `tid-batch/c-per-tid` under `clang19-pg` (csrc/nbtree_bitmap.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_tid_batch_c_per_tid:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	push rax
	mov rbx, rdx
	mov r14, rsi
	mov r12, qword ptr [rdi + 56]
	lea r13, [r12 + 136]
	xor r15d, r15d
	jmp .L0
.L1:
	mov rdi, r14
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	je .L2
.L0:
	mov rdi, r14
	call hl_tb_bt_first@PLT
	test rax, rax
	je .L1
	mov rdi, rbx
	mov rsi, rax
	jmp .L3
.L4:
	cdqe
	lea rax, [rax + 4*rax]
	lea rsi, [2*rax]
	add rsi, r13
	mov rdi, rbx
.L3:
	mov edx, 1
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
	inc r15
	mov eax, dword ptr [r12 + 132]
	inc eax
	mov dword ptr [r12 + 132], eax
	cmp eax, dword ptr [r12 + 128]
	jle .L4
	mov rdi, r14
	call hl_tb_bt_next@PLT
	test al, al
	je .L1
	mov eax, dword ptr [r12 + 132]
	jmp .L4
.L2:
	mov rax, r15
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
