# A sample of gremlins' mutants of a package, applied by hand: gremlins
# itself reported every mcts mutant killed here (604 of 604), including
# one shown by hand to live, so its verdicts are not used. Usage, from the
# repository's root:
#   gremlins unleash --dry-run ./mcts | grep RUNNABLE > /tmp/mcts-mutants.txt
#   mkdir /tmp/mutcopy && git ls-files | tar -cf - -T - | tar -xf - -C /tmp/mutcopy
#   cp checkpoints/*.player /tmp/mutcopy/checkpoints/
#   python3 experiments/mutation/sample.py SEED COUNT [PKG [TESTS]]
# PKG is the package's folder (mcts by default), TESTS the packages whose
# tests judge (./PKG/... by default). The mutants are read from
# /tmp/PKG-mutants.txt (with / as -), or the file MUTANTS names: the code
# has moved since the mcts list was made, so mcts-mutants.txt here is the
# same list with its lines moved to where they now stand (same order, so
# a seed samples the same mutants). MUTCOPY names another copy than
# /tmp/mutcopy, TIMEOUT the test run's timeout (300s). Each sampled mutant is applied to the copy, the tests run
# on it (a failure kills it; one that does not compile is unviable), and
# the file restored.
import random,subprocess,sys,re,os,shutil
src=os.environ.get('MUTCOPY','/tmp/mutcopy')  # the copy the mutants are applied to
pkg=sys.argv[3] if len(sys.argv)>3 else 'mcts'
tests=sys.argv[4].split(',') if len(sys.argv)>4 else ['./'+pkg+'/...']
lines=[l.split() for l in open(os.environ.get('MUTANTS','/tmp/'+pkg.replace('/','-')+'-mutants.txt'))]
random.seed(int(sys.argv[1])); sample=random.sample(lines, int(sys.argv[2]))
def mutate(text, kind, col):
    i=col-1
    two=text[i:i+2]; one=text[i]
    if kind=='CONDITIONALS_BOUNDARY':
        m={'<=':'<','>=':'>'}
        if two in m: return text[:i]+m[two]+text[i+2:]
        m={'<':'<=','>':'>='}
        if one in m: return text[:i]+m[one]+text[i+1:]
    if kind=='CONDITIONALS_NEGATION':
        m={'==':'!=','!=':'==','<=':'>','>=':'<'}
        if two in m: return text[:i]+m[two]+text[i+2:]
        m={'<':'>=','>':'<='}
        if one in m: return text[:i]+m[one]+text[i+1:]
    if kind=='INCREMENT_DECREMENT':
        m={'++':'--','--':'++'}
        if two in m: return text[:i]+m[two]+text[i+2:]
    if kind=='ARITHMETIC_BASE':
        if two in ('+=','-=','*=','/='):
            m={'+':'-','-':'+','*':'/','/':'*'}; return text[:i]+m[one]+text[i+1:]
        m={'+':'-','-':'+','*':'/','/':'*','%':'*'}
        if one in m: return text[:i]+m[one]+text[i+1:]
    if kind=='INVERT_NEGATIVES':
        if one=='-': return text[:i]+'+'+text[i+1:]
    return None
res={'killed':0,'lived':0,'skipped':0,'unviable':0}
for m in sample:
    kind=m[1]; loc=m[3]; f,ln,col=loc.rsplit(':',2); ln=int(ln); col=int(col)
    path=os.path.join(src,pkg,f)
    orig=open(path).read().split('\n')
    new=mutate(orig[ln-1], kind, col)
    if new is None or new==orig[ln-1]:
        res['skipped']+=1; print('SKIP',kind,loc,repr(orig[ln-1][col-1:col+2])); continue
    mod=orig[:]; mod[ln-1]=new
    open(path,'w').write('\n'.join(mod))
    r=subprocess.run(['go','test','-count=1','-failfast','-timeout',os.environ.get('TIMEOUT','300s')]+tests,cwd=src,capture_output=True,text=True)
    open(path,'w').write('\n'.join(orig))
    st='killed' if r.returncode!=0 else 'lived'
    if r.returncode!=0 and ('[build failed]' in r.stdout or '[setup failed]' in r.stdout):
        st='unviable'  # does not compile: no test judged it
    res[st]+=1
    print(st.upper(),kind,loc,'|',orig[ln-1].strip(),'=>',new.strip(), flush=True)
print(res)
